// Dev server only: when the server rebuilt the page on screen, the router swaps in its new
// content (no reload: scroll, state and open menus stay); a change to the site's frame (assets,
// sidebars, templates) reloads the page.
import { refresh } from './navigation.ts'

export interface ReloadEvent {
  /** Routes written by the rebuild. */
  routes: string[]
  /** The whole site was rebuilt, or its assets changed: open pages reload. */
  full: boolean
  /** Something every page shows (a sidebar) changed: open pages reload. */
  layout: boolean
}

const events = new EventSource('/__docs/events')
events.addEventListener('reload', (event) => {
  const { routes, full, layout } = JSON.parse((event as MessageEvent).data) as ReloadEvent
  if (full || layout) location.reload()
  else if (routes.includes(location.pathname)) refresh()
})
events.addEventListener('build-error', (event) =>
  console.error(JSON.parse((event as MessageEvent).data)),
)
