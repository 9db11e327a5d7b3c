// Client navigation: a click on a link inside the site fetches the next page's data, renders
// it into `#page-root`, updates the head (title, description, canonical and `hreflang` links),
// focus and scroll, and keeps history (back, forward, anchors) working. Next-page data is
// prefetched once per path on hover, and for a few links of the content coming into view,
// except on 2G connections or with data saving on. A navigation slower than 200 ms shows the
// progress bar; one whose data cannot load becomes a full page load.
import { createElement } from 'react'
import { flushSync } from 'react-dom'
import { createRoot, type Root } from 'react-dom/client'
import type { ClientPage, PageModel, SiteModel } from '../../model/site-model.ts'
import { alternateLinks } from '../alternates.ts'
import { Footer } from '../Footer.tsx'
import { whenIdle } from '../idle.ts'
import { pageTitle } from '../page-title.ts'
import { setPageLocation } from '../route-store.ts'
import { loadSidebar } from '../sidebar-data.ts'
import { highlightTerms } from './highlight.ts'
import { hydrateIslands, unmountIslands } from './islands.tsx'
import { setNavigator } from './navigation.ts'
import { PageRoot } from './PageRoot.tsx'
import { linkPageStyles } from './page-styles.ts'
import { doneProgress, startProgress } from './progress.ts'
import { scrollToAnchor, scrollToY } from './scroll.ts'

interface HistoryState {
  route: string
  scrollY?: number
}

/** The route of an address inside the site, or undefined when it is not a page of this site. */
export const routeOf = (url: URL, baseUrl: string): string | undefined => {
  if (url.origin !== location.origin || !url.pathname.startsWith(baseUrl)) return undefined
  let path = url.pathname.replace(/\/index\.html$/, '/').replace(/\.html$/, '/')
  const last = path.slice(path.lastIndexOf('/') + 1)
  if (last.includes('.')) return undefined // a file: image, sitemap, JSON
  if (!path.endsWith('/')) path += '/'
  return path
}

/** The links whose coming into view prefetches their page: the content's and previous/next. */
const VIEW_PREFETCH_LINKS = '.markdown a[href], .pagination a[href]'

/** Parts of a page that scroll on their own. */
const SCROLLED_PANES = ['.doc-layout__sidebar', '.doc-layout__toc']

/** At most this many pages are prefetched per page view because their links came into view. */
export const VIEW_PREFETCH_LIMIT = 3

/** Whether the connection asks us not to spend data on guesses. */
const dataIsScarce = () => {
  const connection = (
    navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } }
  ).connection
  return !!connection && (!!connection.saveData || /2g/.test(connection.effectiveType ?? ''))
}

export const startRouter = (site: SiteModel, first: ClientPage) => {
  const { baseUrl } = site.config
  const pages = new Map<string, Promise<PageModel>>()
  const prefetched = new Set<string>()
  let current = first.route
  let root: Root | undefined
  let navigation = 0

  /** Page-data requests in flight, and what to do once none is. */
  let active = 0
  let onSettled = () => {}

  const loadPage = (route: string): Promise<PageModel> => {
    let promise = pages.get(route)
    if (!promise) {
      const url = `${route}page-data.json`
      active++
      promise = fetch(url)
        .then(async (response) => {
          if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`)
          const page = (await response.json()) as PageModel
          if (page.sidebarId) await loadSidebar(site, page.sidebarId)
          return page
        })
        .catch((error) => {
          pages.delete(route)
          throw error
        })
        .finally(() => {
          active--
          if (!active) onSettled()
        })
      pages.set(route, promise)
    }
    return promise
  }

  const prefetch = (route: string) => {
    if (route === current || prefetched.has(route) || dataIsScarce()) return
    prefetched.add(route)
    loadPage(route).catch(() => {})
  }

  let footerRoot: Root | undefined
  const renderFooter = (route: string) => {
    const container = document.getElementById('footer-root')
    if (!container) return
    if (!footerRoot) {
      container.textContent = ''
      footerRoot = createRoot(container)
    }
    flushSync(() => footerRoot?.render(createElement(Footer, { site, route })))
  }

  const render = (page: PageModel, remount = true) => {
    const container = document.getElementById('page-root')!
    // The islands hydrated so far (all of them on the first navigation, then those of the
    // previous page's content) go with the content they live in.
    unmountIslands(container)
    if (!root) {
      container.textContent = ''
      root = createRoot(container)
    }
    document.title = pageTitle(site.config, page)
    linkPageStyles(site, page)
    const retry = () => {
      pages.delete(page.route)
      void navigate(new URL(location.href), 'replace')
    }
    // A new page starts from fresh components; the same page rebuilt keeps them (and the DOM
    // the content's edit did not touch).
    if (remount) navigation++
    // Synchronously: focus, scroll and anchors below need the new page in the document.
    const next = createElement(PageRoot, { key: navigation, site, page, onRetry: retry })
    flushSync(() => root?.render(next))
    const description = document.querySelector('meta[name="description"]')
    if (description) description.setAttribute('content', page.description)
    document
      .querySelector('link[rel="canonical"]')
      ?.setAttribute('href', `${site.config.url}${page.variants?.canonical ?? page.route}`)
    // The translations of the new page, not of the first one loaded.
    for (const link of document.head.querySelectorAll('link[rel="alternate"][hreflang]'))
      link.remove()
    const before = document.head.querySelector('link[rel="icon"], script, link[rel="stylesheet"]')
    for (const { lang, href } of alternateLinks(site.config, page)) {
      const link = document.createElement('link')
      link.rel = 'alternate'
      link.hreflang = lang
      link.href = href
      document.head.insertBefore(link, before)
    }
    // A link between languages keeps the document: its language follows the page, and so do
    // the footer's words (outside `#page-root`, rendered again only then).
    const lang = page.variants?.locale ?? site.config.locales.default
    if (lang !== document.documentElement.lang) renderFooter(page.route)
    document.documentElement.lang = lang
    current = page.route
    setPageLocation({ route: page.route, sidebarId: page.sidebarId, variants: page.variants })
    // The content is HTML from the build: its islands (tab lists, copy buttons) hydrate as on
    // a first load.
    const content = container.querySelector('.markdown')
    if (content) void hydrateIslands(content, site, 'render')
    highlightTerms()
    observeLinks(container)
  }

  const saveScroll = () => {
    history.replaceState({ ...history.state, route: current, scrollY } satisfies HistoryState, '')
  }

  let latest = 0
  const navigate = async (url: URL, how: 'push' | 'pop' | 'replace'): Promise<void> => {
    const route = routeOf(url, baseUrl)!
    const ticket = ++latest
    startProgress()
    let page: PageModel
    try {
      page = await loadPage(route)
    } catch (error) {
      doneProgress()
      if (ticket !== latest) return
      console.warn(`Could not load ${url.pathname} (${error}); loading the whole page instead.`)
      if (how === 'pop') location.reload()
      else location.assign(url.href)
      return
    }
    if (ticket !== latest) return
    if (how === 'push') {
      saveScroll()
      history.pushState({ route } satisfies HistoryState, '', url.href)
    } else if (how === 'replace') history.replaceState({ route }, '', url.href)
    render(page)
    document.getElementById('main-content')?.focus({ preventScroll: true })
    const saved = (history.state as HistoryState | null)?.scrollY
    if (how === 'pop' && saved !== undefined) scrollToY(saved, false)
    else if (!url.hash || !scrollToAnchor(url.hash, false)) scrollToY(0, false)
    doneProgress()
  }

  const go = (href: string) => {
    const url = new URL(href, location.href)
    if (routeOf(url, baseUrl)) void navigate(url, 'push')
    else location.assign(url.href)
  }
  /** The dev server rebuilt the page on screen: its new content, where the reader is. */
  let refreshes = 0
  const refresh = async () => {
    const route = current
    const navigated = latest
    const ticket = ++refreshes
    // Panes that scroll on their own (the sidebar, the table of contents) keep their place too.
    const panes = SCROLLED_PANES.map((selector) => ({
      selector,
      top: document.querySelector(selector)?.scrollTop ?? 0,
    }))
    const y = scrollY
    pages.delete(route)
    let page: PageModel
    try {
      page = await loadPage(route)
    } catch (error) {
      if (ticket !== refreshes || navigated !== latest) return
      console.warn(`Could not load the rebuilt ${route} (${error}); reloading the page instead.`)
      location.reload()
      return
    }
    // A newer edit or a navigation since then shows its own page.
    if (ticket !== refreshes || navigated !== latest || route !== current) return
    render(page, false)
    for (const { selector, top } of panes) {
      const pane = document.querySelector(selector)
      if (pane) pane.scrollTop = top
    }
    scrollToY(y, false)
  }
  setNavigator(go, () => void refresh())

  /** The link a click or hover is about, if client navigation should handle it. */
  const siteLink = (event: Event): { anchor: HTMLAnchorElement; url: URL } | undefined => {
    const anchor = (event.target as Element | null)?.closest?.<HTMLAnchorElement>('a[href]')
    if (!anchor || anchor.hasAttribute('download')) return undefined
    if (anchor.target && anchor.target !== '_self') return undefined
    const url = new URL(anchor.href, location.href)
    return routeOf(url, baseUrl) ? { anchor, url } : undefined
  }

  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0) return
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    const link = siteLink(event)
    if (!link) return
    const { url } = link
    event.preventDefault()
    const samePage = routeOf(url, baseUrl) === current && url.search === location.search
    if (samePage && url.hash) {
      saveScroll()
      history.pushState({ route: current } satisfies HistoryState, '', url.href)
      scrollToAnchor(url.hash, true)
    } else void navigate(url, 'push')
  })

  addEventListener('popstate', () => {
    const url = new URL(location.href)
    const route = routeOf(url, baseUrl)
    if (!route) return location.reload()
    if (route === current) {
      const saved = (history.state as HistoryState | null)?.scrollY
      if (saved !== undefined) scrollToY(saved, false)
      else if (url.hash) scrollToAnchor(url.hash, false)
      else scrollToY(0, false)
      return
    }
    void navigate(url, 'pop')
  })

  const onIntent = (event: Event) => {
    const link = siteLink(event)
    if (link) prefetch(routeOf(link.url, baseUrl)!)
  }
  document.addEventListener('mouseover', onIntent, { passive: true })
  document.addEventListener('touchstart', onIntent, { passive: true })
  document.addEventListener('focusin', onIntent)

  // A few links coming into view are prefetched: those of the content and the previous/next
  // links (never the navbar, sidebar or footer), the next page first, one at a time while no
  // other page data loads, when the browser is idle. Not on the dev server (it serves the
  // live-reload client): every edit reloads the page and drops what was prefetched, and the
  // requests would compete with the rebuild of the next edit.
  let budget = VIEW_PREFETCH_LIMIT
  let queue: { route: string; rank: number }[] = []
  let pumping = false
  const pump = () => {
    if (pumping || active > 0 || !queue.length || budget <= 0) return
    pumping = true
    whenIdle(
      () => {
        pumping = false
        if (active > 0 || budget <= 0) return
        queue.sort((a, b) => a.rank - b.rank)
        const next = queue.shift()
        if (!next) return
        if (next.route === current || prefetched.has(next.route)) return pump()
        budget--
        prefetch(next.route)
      },
      { timeout: 2000, fallbackDelay: 100 },
    )
  }
  onSettled = pump
  const visible =
    'IntersectionObserver' in window && !site.assets.devReload
      ? new IntersectionObserver((entries) => {
          for (const entry of entries) {
            if (!entry.isIntersecting) continue
            const anchor = entry.target as HTMLAnchorElement
            visible?.unobserve(anchor)
            const route = routeOf(new URL(anchor.href, location.href), baseUrl)
            if (!route) continue
            const rank = anchor.rel === 'next' ? 0 : anchor.closest('.markdown') ? 1 : 2
            queue.push({ route, rank })
          }
          pump()
        })
      : undefined
  const observeLinks = (scope: ParentNode) => {
    if (!visible) return
    visible.disconnect()
    queue = []
    budget = VIEW_PREFETCH_LIMIT
    for (const anchor of scope.querySelectorAll<HTMLAnchorElement>(VIEW_PREFETCH_LINKS))
      if (routeOf(new URL(anchor.href, location.href), baseUrl)) visible.observe(anchor)
  }

  // The router restores scroll positions itself, also after a reload or a full-page back.
  history.scrollRestoration = 'manual'
  const arrival = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming)
    ?.type
  const savedY = (history.state as HistoryState | null)?.scrollY
  history.replaceState({ ...history.state, route: current } satisfies HistoryState, '')
  if (savedY !== undefined && (arrival === 'reload' || arrival === 'back_forward'))
    scrollToY(savedY, false)
  // Saved as the reader stops scrolling: a state change while the page unloads does not stick.
  let scrollTimer: ReturnType<typeof setTimeout> | undefined
  addEventListener(
    'scroll',
    () => {
      clearTimeout(scrollTimer)
      scrollTimer = setTimeout(saveScroll, 200)
    },
    { passive: true },
  )
  // Watching the page's links can wait until the page is idle.
  whenIdle(() => observeLinks(document), { fallbackDelay: 200 })
}
