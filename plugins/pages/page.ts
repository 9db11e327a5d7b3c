// The HTML shell the official browser extension attaches its UI to: it looks for
// `<html class="passbolt">` and renders into the page itself; no script of ours runs.
import { escapeHtml } from '../../api/html.ts'

/** Plain links shown until the extension takes over (and to people without it). */
export interface ShellLink {
  href: string
  text: string
}

export const shellPage = (title: string, links: readonly ShellLink[] = []) =>
  `<!DOCTYPE html>
<html class="passbolt no-js version launching no-passboltplugin" lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)} | Keyward</title>
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
<link rel="stylesheet" href="/css/shell.css">
</head>
<body>
<div id="temporary-skeleton"><p>Loading ${escapeHtml(title.toLowerCase())}. The Keyward (passbolt) browser extension is needed to continue.</p>${links.map((link) => `\n<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>`).join('')}</div>
</body>
</html>`
