// The HTML document: head (metadata, stylesheet, colour mode before first paint, configured
// scripts) around a body.
import type { ReactNode } from 'react'
import type { ClientData, PageModel, SiteModel } from '../model/site-model.ts'
import { alternateLinks } from './alternates.ts'
import { ConsentScript } from './ConsentScript.tsx'
import { headScripts } from './head-scripts.ts'
import { pageTitle } from './page-title.ts'

/** JSON safe inside a script element (no `</script>` or comment openers). */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')

/** Link previews need an absolute address. */
const absoluteUrl = (origin: string, path: string | undefined) =>
  path?.startsWith('/') ? `${origin.replace(/\/$/, '')}${path}` : path

const clientData = (site: SiteModel, page: PageModel): ClientData => {
  const { html: _html, ...rest } = page
  return { config: site.config, assets: site.assets, page: rest }
}

export function Html({
  site,
  page,
  children,
}: {
  site: SiteModel
  page: PageModel
  children: ReactNode
}) {
  const { config } = site
  const title = pageTitle(config, page)
  const image = absoluteUrl(config.url, page.image ?? config.image)
  const { variants } = page
  // A copy of another page (archived, untranslated) names the current one canonical.
  const canonical = `${config.url}${variants?.canonical ?? page.route}`
  return (
    <html
      lang={variants?.locale ?? config.locales.default}
      data-theme={config.colorMode.defaultMode}
      dir="ltr"
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        {page.description ? <meta name="description" content={page.description} /> : null}
        {page.keywords?.length ? <meta name="keywords" content={page.keywords.join(', ')} /> : null}
        <meta property="og:title" content={title} />
        <meta property="og:type" content="article" />
        <meta property="og:url" content={`${config.url}${page.route}`} />
        {page.description ? <meta property="og:description" content={page.description} /> : null}
        {image ? <meta property="og:image" content={image} /> : null}
        <meta name="twitter:card" content={image ? 'summary_large_image' : 'summary'} />
        {page.noindex ? (
          <meta name="robots" content="noindex, nofollow" />
        ) : (
          <link rel="canonical" href={canonical} />
        )}
        {alternateLinks(config, page).map(({ lang, href }) => (
          <link key={lang} rel="alternate" hrefLang={lang} href={href} />
        ))}
        {config.favicon ? <link rel="icon" href={config.favicon} /> : null}
        <script dangerouslySetInnerHTML={{ __html: headScripts(config, page.route) }} />
        <link rel="stylesheet" href={site.assets.css} />
        {page.features?.includes('math') ? (
          <link rel="stylesheet" href={site.assets.mathCss} data-feature="math" />
        ) : null}
        <ConsentScript config={config} />
        {config.scripts.map((script) => (
          <script
            key={script.src}
            src={script.src}
            async={script.async || undefined}
            defer={script.defer || undefined}
            {...script.attributes}
          />
        ))}
        <script type="module" src={site.assets.js} />
        {page.sidebarId && site.assets.sidebars[page.sidebarId] ? (
          // The sidebar island hydrates with these items: fetch them beside the script (the
          // bootstrap takes them as soon as it runs, see client/early-fetch.ts).
          <link
            rel="preload"
            href={site.assets.sidebars[page.sidebarId]}
            as="fetch"
            crossOrigin="anonymous"
          />
        ) : null}
        {site.assets.preload.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
        {site.assets.devReload ? <script type="module" src={site.assets.devReload} /> : null}
      </head>
      <body>
        {children}
        <script
          id="__keyward-data"
          type="application/json"
          dangerouslySetInnerHTML={{ __html: scriptJson(clientData(site, page)) }}
        />
      </body>
    </html>
  )
}
