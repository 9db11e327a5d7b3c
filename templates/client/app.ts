// The interactive part of a page, on React: hydrates the islands and starts client navigation.
// The page's bootstrap (main.ts) imports this module once the page is idle or the reader first
// interacts, so React never delays the first paint.
import type { SiteModel } from '../../model/site-model.ts'
import { hydrateIslands } from './islands.tsx'
import { startRouter } from './router.ts'
import { clientData } from './site-data.ts'

export const startApp = async (): Promise<void> => {
  const data = clientData()
  const site: SiteModel = { config: data.config, assets: data.assets, sidebars: {} }
  startRouter(site, data.page)
  await hydrateIslands(document, site)
  // Tells tests and benchmarks the islands are live: hydrated, and their effects run.
  document.documentElement.dataset.hydrated = 'true'
}
