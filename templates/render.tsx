// Renders one page model to a complete HTML document.
import { renderToString } from 'react-dom/server'
import { DocPage } from './DocPage.tsx'
import { Html } from './Html.tsx'
import { LandingPage } from './LandingPage.tsx'
import { Layout } from './Layout.tsx'
import type { PageModel, SiteModel } from './model.ts'
import { NotFoundPage } from './NotFoundPage.tsx'
import { SearchPage } from './SearchPage.tsx'

const body = (site: SiteModel, page: PageModel) => {
  switch (page.kind) {
    case 'landing':
      return <LandingPage site={site} page={page} />
    case 'not-found':
      return <NotFoundPage site={site} />
    case 'search':
      return <SearchPage site={site} />
    case 'doc':
      return <DocPage site={site} page={page} />
  }
}

export const renderPage = (site: SiteModel, page: PageModel): string =>
  `<!DOCTYPE html>${renderToString(
    <Html site={site} page={page}>
      <Layout site={site} route={page.route}>
        {body(site, page)}
      </Layout>
    </Html>,
  )}`
