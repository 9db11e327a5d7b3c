// The page's bootstrap, free of any framework so that it weighs a few kilobytes: it installs
// the consent gate and highlights search terms at once, then loads the React part (islands and
// client navigation, app.ts) when the page is idle or at the reader's first interaction,
// whichever comes first. Its chunks are preloaded, so that import rarely waits on the network.
import { whenIdle } from '../idle.ts'
import { initConsent } from './consent.ts'
import { fetchEarly } from './early-fetch.ts'
import { highlightTerms } from './highlight.ts'
import { initImageZoom } from './image-zoom.ts'
import { clientData } from './site-data.ts'

const data = clientData()
const sidebar = data.page.sidebarId && data.assets.sidebars[data.page.sidebarId]
if (sidebar) fetchEarly(sidebar)
initConsent(data.config)
highlightTerms()
initImageZoom()

const INTERACTIONS = ['pointerdown', 'keydown', 'focusin', 'touchstart', 'mouseover'] as const

/** Ctrl/Cmd+K focuses the search box while its component is still on its way. */
const focusSearch = (event: KeyboardEvent) => {
  if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'k') return
  const box = document.getElementById('docs-search')
  if (!box) return
  event.preventDefault()
  box.focus()
}
addEventListener('keydown', focusSearch)

let started = false
const start = () => {
  if (started) return
  started = true
  cancelIdle()
  for (const type of INTERACTIONS) removeEventListener(type, start, true)
  void import('./app.ts')
    .then(({ startApp }) => startApp())
    .finally(() => removeEventListener('keydown', focusSearch))
}
const cancelIdle = whenIdle(start, { timeout: 1500, fallbackDelay: 200 })
for (const type of INTERACTIONS) addEventListener(type, start, { capture: true, passive: true })
