// The page's script: hydrates the islands, starts client navigation, highlights search terms
// and installs the consent gate.
import type { SiteModel } from '../model.ts'
import { initConsent } from './consent.ts'
import { highlightTerms } from './highlight.ts'
import { hydrateIslands } from './islands.tsx'
import { startRouter } from './router.ts'
import { clientData } from './site-data.ts'

const data = clientData()
const site: SiteModel = { config: data.config, assets: data.assets, sidebars: {} }

initConsent(data.config)
highlightTerms()

// `data-hydrated` tells tests and benchmarks the islands are live: hydrated, and their effects
// (listeners) run, which preact does in a timeout after the next frame.
void hydrateIslands(document, site).then(() =>
  requestAnimationFrame(() =>
    setTimeout(() =>
      setTimeout(() => {
        document.documentElement.dataset.hydrated = 'true'
      }),
    ),
  ),
)
startRouter(site, data.page)
