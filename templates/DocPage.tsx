// A documentation page: sidebar, breadcrumbs, title, content, edit link and last update,
// previous/next, TOC.
// The sidebar and the table of contents are islands; the rest is static HTML.

import type { ClientPage, SiteModel } from '../model/site-model.ts'
import { variantOf } from '../model/variants.ts'
import { Breadcrumbs } from './Breadcrumbs.tsx'
import { Island } from './Island.tsx'
import { Pagination } from './Pagination.tsx'
import { Sidebar } from './Sidebar.tsx'
import { type Strings, stringsFor } from './strings.ts'
import { TableOfContents } from './TableOfContents.tsx'

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' })

function LastUpdated({ seconds, t }: { seconds: number; t: Strings }) {
  const date = new Date(seconds * 1000)
  const [before, after = ''] = t('doc.lastUpdated').split('{date}')
  return (
    <p className="last-updated">
      {before}
      <time dateTime={date.toISOString()}>{dateFormat.format(date)}</time>
      {after}
    </p>
  )
}

/** An untranslated page's notice, or an archived version's banner linking to the current page. */
function VariantNotice({ site, page, t }: { site: SiteModel; page: ClientPage; t: Strings }) {
  const { variants } = page
  if (!variants) return null
  const { locales } = site.config
  const label = (code: string) => locales.items.find((item) => item.code === code)?.label ?? code
  if (variants.fallback)
    return (
      <div className="admonition admonition--info variant-notice" role="note">
        <div className="admonition__title">{t('doc.fallbackTitle')}</div>
        <div className="admonition__body">
          <p>
            {t('doc.fallback', {
              language: label(variants.locale),
              default: label(locales.default),
            })}
          </p>
        </div>
      </div>
    )
  const version = site.config.versions.find((v) => v.name === variants.version)
  if (!version || version === site.config.versions[0]) return null
  return (
    <div className="admonition admonition--warning variant-notice archived-banner" role="note">
      <div className="admonition__title">{t('doc.archivedTitle')}</div>
      <div className="admonition__body">
        <p>
          {t('doc.archived', { version: version.label })}{' '}
          <a href={variants.versions[0].href}>{t('doc.archivedLink')}</a>
        </p>
      </div>
    </div>
  )
}

export function DocPage({ site, page, html }: { site: SiteModel; page: ClientPage; html: string }) {
  const t = stringsFor(site.config, page.route)
  const variants = page.variants
  const sidebar = page.sidebarId ? { sidebarId: page.sidebarId, route: page.route } : undefined
  return (
    <div className={sidebar ? 'doc-layout doc-layout--with-sidebar' : 'doc-layout'}>
      {sidebar ? (
        <aside className="doc-layout__sidebar">
          <Island name="sidebar" props={sidebar}>
            <Sidebar {...sidebar} />
          </Island>
        </aside>
      ) : null}
      <main id="main-content" className="doc-layout__main" tabIndex={-1}>
        <article className="doc">
          {page.unlisted ? (
            <div className="admonition admonition--warning unlisted-banner" role="note">
              <div className="admonition__title">{t('doc.unlistedTitle')}</div>
              <div className="admonition__body">
                <p>{t('doc.unlisted')}</p>
              </div>
            </div>
          ) : null}
          <VariantNotice site={site} page={page} t={t} />
          <Breadcrumbs
            home={variants ? variantOf(site.config, page.route).base : site.config.baseUrl}
            crumbs={page.breadcrumbs}
            title={page.title}
            t={t}
          />
          <header>
            <h1>{page.title}</h1>
          </header>
          <div
            className="markdown"
            // An untranslated page's content is in the default locale's language.
            lang={variants?.fallback ? site.config.locales.default : undefined}
            dangerouslySetInnerHTML={{ __html: html }}
          />
          {page.editUrl || page.lastUpdated ? (
            <footer className="doc-meta">
              {page.editUrl ? (
                <a className="doc-meta__edit" href={page.editUrl}>
                  {t('doc.edit')}
                </a>
              ) : null}
              {page.lastUpdated ? <LastUpdated seconds={page.lastUpdated} t={t} /> : null}
            </footer>
          ) : null}
          <Pagination previous={page.previous} next={page.next} t={t} />
        </article>
      </main>
      {page.toc.length ? (
        <aside className="doc-layout__toc">
          {/* The items are in the page's client data already: the island reads them there. */}
          <Island name="toc" props={{}}>
            <TableOfContents items={page.toc} route={page.route} />
          </Island>
        </aside>
      ) : null}
    </div>
  )
}
