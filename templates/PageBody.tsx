// The part of a page inside `#page-root`, by kind: what the build renders and what client
// navigation renders from the next page's data.

import type { ClientPage } from '../model/site-model.ts'
import { ApiPage } from './ApiPage.tsx'
import { DocPage } from './DocPage.tsx'
import { LandingPage } from './LandingPage.tsx'
import { NotFoundPage } from './NotFoundPage.tsx'
import { SearchPage } from './SearchPage.tsx'
import { useSite } from './SiteContext.tsx'

export function PageBody({ page, html }: { page: ClientPage; html: string }) {
  const site = useSite()
  switch (page.kind) {
    case 'landing':
      return <LandingPage site={site} page={page} />
    case 'not-found':
      return <NotFoundPage site={site} route={page.route} />
    case 'search':
      return <SearchPage site={site} route={page.route} />
    case 'api':
      return <ApiPage html={html} />
    case 'doc':
      return <DocPage site={site} page={page} html={html} />
    default:
      throw new Error(`Unknown page kind "${(page as { kind: string }).kind}"`)
  }
}
