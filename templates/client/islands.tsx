// Hydrates the server-rendered islands of the page with their components and props. An island
// that throws while hydrating is a recoverable error: it is logged, and the island keeps its
// server-rendered HTML (static, but readable).
import { Component, type ComponentType, type ReactNode, useEffect } from 'react'
import { flushSync } from 'react-dom'
import { createRoot, hydrateRoot, type Root } from 'react-dom/client'
import type { SiteModel } from '../../model/site-model.ts'
import { AnnouncementBar } from '../AnnouncementBar.tsx'
import { ApiFilter } from '../ApiFilter.tsx'
import { CopyButton } from '../CopyButton.tsx'
import { whenIdle } from '../idle.ts'
import type { IslandName } from '../island-names.ts'
import { Mermaid } from '../Mermaid.tsx'
import { Navbar } from '../Navbar.tsx'
import { SearchPageLoader } from '../SearchPageLoader.tsx'
import { Sidebar } from '../Sidebar.tsx'
import { SiteContext } from '../SiteContext.tsx'
import { loadSidebar } from '../sidebar-data.ts'
import { TabList } from '../TabList.tsx'
import { TableOfContents } from '../TableOfContents.tsx'
import { clientData } from './site-data.ts'

/** The first page's table of contents, from the client data (not repeated in the island). */
function PageToc() {
  const { page } = clientData()
  return <TableOfContents items={page.toc} route={page.route} />
}

// biome-ignore lint/suspicious/noExplicitAny: each island declares its own props
const COMPONENTS: Record<IslandName, ComponentType<any>> = {
  navbar: Navbar,
  announcement: AnnouncementBar,
  sidebar: Sidebar,
  toc: PageToc,
  search: SearchPageLoader,
  tabs: TabList,
  copy: CopyButton,
  mermaid: Mermaid,
  'api-filter': ApiFilter,
}

class IslandBoundary extends Component<
  { onError: (error: unknown) => void; children: ReactNode },
  { failed: boolean }
> {
  state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  componentDidCatch(error: unknown) {
    this.props.onError(error)
  }
  render() {
    return this.state.failed ? null : this.props.children
  }
}

/** Mounted after an island, so its effect runs once the island's own effects have run. */
function Committed({ onCommit }: { onCommit: () => void }) {
  useEffect(onCommit, [])
  return null
}

const roots = new Map<Element, Root>()

const idle = () =>
  new Promise<void>((resolve) => whenIdle(resolve, { timeout: 1000, fallbackDelay: 50 }))

/**
 * `hydrate`: the HTML came from the server with the page, and React adopts it. `render`: the
 * HTML was just put there by client navigation, so the island renders at once (synchronously,
 * effects included) and the reader never sees its server state.
 */
export type IslandMode = 'hydrate' | 'render'

const hydrateIsland = async (el: HTMLElement, site: SiteModel, mode: IslandMode): Promise<void> => {
  const name = el.dataset.island as IslandName
  const Island = COMPONENTS[name]
  if (!Island) throw new Error(`Unknown island "${name}"`)
  const props = JSON.parse(el.dataset.props ?? '{}')
  // The sidebar's items come from its JSON file; hydrating needs them to match the HTML. Its
  // categories work natively meanwhile, so a long sidebar hydrates once the page is idle.
  if (name === 'sidebar') {
    await loadSidebar(site, props.sidebarId)
    await idle()
  }
  const serverHtml = el.innerHTML
  const onError = (error: unknown) => {
    console.error(
      `Recoverable hydration error in the "${name}" island; it keeps its server-rendered HTML.`,
      error,
    )
    queueMicrotask(() => {
      roots.get(el)?.unmount()
      roots.delete(el)
      el.innerHTML = serverHtml
      el.dataset.islandFailed = 'true'
    })
  }
  let committed = () => {}
  const done = new Promise<void>((resolve) => {
    committed = resolve
  })
  const tree = (
    <SiteContext.Provider value={site}>
      <IslandBoundary onError={onError}>
        <Island {...props} />
      </IslandBoundary>
      <Committed onCommit={committed} />
    </SiteContext.Provider>
  )
  if (mode === 'hydrate') roots.set(el, hydrateRoot(el, tree))
  else {
    const root = createRoot(el)
    roots.set(el, root)
    flushSync(() => root.render(tree))
  }
  await done
}

/** Starts every island below `scope`; resolves once all have committed (or failed). */
export const hydrateIslands = async (
  scope: ParentNode,
  site: SiteModel,
  mode: IslandMode = 'hydrate',
): Promise<void> => {
  const islands = [...scope.querySelectorAll<HTMLElement>('[data-island]')]
  const results = await Promise.allSettled(islands.map((el) => hydrateIsland(el, site, mode)))
  for (const [i, result] of results.entries())
    if (result.status === 'rejected')
      console.error(`The "${islands[i].dataset.island}" island did not hydrate:`, result.reason)
}

/** Unmounts the hydrated islands below `scope` (before client navigation replaces it). */
export const unmountIslands = (scope: Element): void => {
  for (const [el, root] of roots)
    if (scope.contains(el)) {
      root.unmount()
      roots.delete(el)
    }
}
