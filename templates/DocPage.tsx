// A documentation page: sidebar, breadcrumbs, title, content, last update, previous/next, TOC.
// The sidebar and the table of contents are islands; the rest is static HTML.
import { Breadcrumbs } from './Breadcrumbs.tsx'
import { Island } from './Island.tsx'
import type { ClientPage, SiteModel } from './model.ts'
import { Pagination } from './Pagination.tsx'
import { Sidebar } from './Sidebar.tsx'
import { TableOfContents } from './TableOfContents.tsx'

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' })

function LastUpdated({ seconds }: { seconds: number }) {
  const date = new Date(seconds * 1000)
  return (
    <p className="last-updated">
      {'Last updated on '}
      <time dateTime={date.toISOString()}>{dateFormat.format(date)}</time>
    </p>
  )
}

export function DocPage({ site, page, html }: { site: SiteModel; page: ClientPage; html: string }) {
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
              <div className="admonition__title">Unlisted page</div>
              <div className="admonition__body">
                <p>
                  This page is unlisted. Search engines will not index it, and only users having a
                  direct link can access it.
                </p>
              </div>
            </div>
          ) : null}
          <Breadcrumbs home={site.config.baseUrl} crumbs={page.breadcrumbs} title={page.title} />
          <header>
            <h1>{page.title}</h1>
          </header>
          <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
          {page.lastUpdated ? <LastUpdated seconds={page.lastUpdated} /> : null}
          <Pagination previous={page.previous} next={page.next} />
        </article>
      </main>
      {page.toc.length ? (
        <aside className="doc-layout__toc">
          {/* The items are in the page's client data already: the island reads them there. */}
          <Island name="toc" props={{}}>
            <TableOfContents items={page.toc} />
          </Island>
        </aside>
      ) : null}
    </div>
  )
}
