// Shared page frame: skip link, announcement bar, navbar, the page, footer. The announcement
// bar and the navbar are islands; the page sits in `#page-root`, which client navigation
// re-renders.
import type { ReactNode } from 'react'
import type { PageModel } from '../model/site-model.ts'
import { AnnouncementBar } from './AnnouncementBar.tsx'
import { Footer } from './Footer.tsx'
import { Island } from './Island.tsx'
import { Navbar } from './Navbar.tsx'
import { useSite } from './SiteContext.tsx'
import { useStrings } from './strings.ts'

export function Layout({ page, children }: { page: PageModel; children: ReactNode }) {
  const site = useSite()
  const bar = site.config.announcementBar
  const location = { route: page.route, sidebarId: page.sidebarId, variants: page.variants }
  const t = useStrings(page.route)
  return (
    <>
      <a className="skip-to-content" href="#main-content">
        {t('skip.toContent')}
      </a>
      {bar ? (
        <Island name="announcement" props={{ bar }}>
          <AnnouncementBar bar={bar} />
        </Island>
      ) : null}
      <Island name="navbar" props={location}>
        <Navbar {...location} />
      </Island>
      <div className="page" id="page-root">
        {children}
      </div>
      <div id="footer-root">
        <Footer site={site} route={page.route} />
      </div>
    </>
  )
}
