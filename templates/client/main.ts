// The page's script: hydrates the islands, starts client navigation, and wires the content
// widgets, the search entry points and the consent gate.
import type { SiteModel } from '../model.ts'
import { initConsent } from './consent.ts'
import { applyStoredTabs, highlightTerms, initContentWidgets } from './content-widgets.ts'
import { hydrateIslands } from './islands.tsx'
import { startRouter } from './router.ts'
import { clientData } from './site-data.ts'

const data = clientData()
const site: SiteModel = { config: data.config, assets: data.assets, sidebars: {} }

initConsent(data.config)
initContentWidgets()
applyStoredTabs(document)
highlightTerms()

/** The search code loads only when the reader reaches for it. */
const initSearchEntry = () => {
  const input = document.querySelector<HTMLInputElement>('#docs-search')
  if (!input) return
  let started = false
  input.addEventListener('focus', () => {
    if (started) return
    started = true
    void import('./search-ui.ts').then(({ initSearch }) => initSearch(input))
  })
  // When the page is idle, fetch the search code (not the index) so the first search starts warm.
  const warm = () => {
    void import('./search-ui.ts').then(({ warmSearch }) => warmSearch())
    const link = document.createElement('link')
    link.rel = 'prefetch'
    link.href = data.assets.searchWorker
    document.head.append(link)
  }
  if ('requestIdleCallback' in window) requestIdleCallback(warm, { timeout: 3000 })
  else setTimeout(warm, 1500)
  document.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
      event.preventDefault()
      input.focus()
    }
  })
}

initSearchEntry()
void hydrateIslands(document, site).then(() => {
  document.documentElement.dataset.hydrated = 'true'
})
startRouter(site, data.page)
