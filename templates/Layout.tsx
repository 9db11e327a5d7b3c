// Shared page frame: skip link, announcement bar, navbar, the page, footer.
import type { ReactNode } from 'react'
import { Footer } from './Footer.tsx'
import type { SiteModel } from './model.ts'
import { Navbar } from './Navbar.tsx'

export function Layout({
  site,
  route,
  children,
}: {
  site: SiteModel
  route: string
  children: ReactNode
}) {
  const bar = site.config.announcementBar
  return (
    <>
      <a className="skip-to-content" href="#main-content">
        Skip to main content
      </a>
      {bar ? (
        <section className="announcement" aria-label="Announcement" data-announcement-id={bar.id}>
          <div
            className="announcement__content"
            dangerouslySetInnerHTML={{ __html: bar.content }}
          />
          {bar.isCloseable ? (
            <button type="button" className="announcement__close" aria-label="Close announcement">
              ×
            </button>
          ) : null}
        </section>
      ) : null}
      <Navbar site={site} route={route} />
      <div className="page">{children}</div>
      <Footer site={site} />
    </>
  )
}
