// The page passbolt's API apps render in: the administration pages the extension hands over to
// the server (e-mail, MFA, self-registration, internationalisation, healthcheck), a user's MFA
// settings, and the recovery and registration pages. The app reads
// the server's address from `<base>`, its stylesheet follows the user's theme, and its scripts
// are same-origin files, so the pages' strict CSP (`script-src 'self'`, no inline code) holds.
import { escapeHtml } from '../../api/html.ts'
import { STYLEGUIDE_VERSION } from './styleguide.ts'

const versioned = (path: string) => `${path}?v=${encodeURIComponent(STYLEGUIDE_VERSION)}`

/**
 * A page of one of passbolt's API apps: `app` (administration and MFA settings) or `triage`
 * (recovery and self-registration for people without a working extension).
 */
export const apiAppPage = (options: {
  appUrl: string
  theme: string
  title: string
  /** @default 'app' */
  app?: 'app' | 'triage'
}) =>
  `<!DOCTYPE html>
<html class="passbolt no-js version launching no-passboltplugin" lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(options.title)} | Keyward</title>
<base href="${escapeHtml(options.appUrl)}">
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
<link rel="stylesheet" href="${versioned(`/css/themes/${encodeURIComponent(options.theme)}/api_main.min.css`)}">
</head>
<body spellcheck="false">
<div id="container" class="page">
<div id="temporary-skeleton" class="temporary skeleton"><p>Loading ${escapeHtml(options.title.toLowerCase())}…</p></div>
</div>
<script src="${versioned('/js/app/api-vendors.js')}"></script>
<script src="${versioned(`/js/app/api-${options.app ?? 'app'}.js`)}"></script>
</body>
</html>`
