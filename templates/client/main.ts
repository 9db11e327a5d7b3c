import { initConsent } from './consent.ts'
import { clientData } from './site-data.ts'

// Progressive enhancement of the server-rendered page: tab sets (synced by group id), copy
// buttons, the colour-mode toggle and the announcement bar's close button.

const storage = {
  get: (key: string) => {
    try {
      return localStorage.getItem(key)
    } catch {
      return null
    }
  },
  set: (key: string, value: string) => {
    try {
      localStorage.setItem(key, value)
    } catch {
      // Storage disabled: the choice lasts for this page only.
    }
  },
}

const selectTab = (tabs: Element, value: string) => {
  for (const tab of tabs.querySelectorAll<HTMLElement>(':scope > .tabs__list > [role="tab"]')) {
    const selected = tab.dataset.value === value
    tab.setAttribute('aria-selected', String(selected))
    tab.tabIndex = selected ? 0 : -1
  }
  for (const panel of tabs.querySelectorAll<HTMLElement>(':scope > [role="tabpanel"]'))
    panel.hidden = panel.dataset.value !== value
}

const activateTab = (tab: HTMLElement) => {
  const tabs = tab.closest('.tabs') as HTMLElement | null
  const value = tab.dataset.value
  if (!tabs || !value) return
  const group = tabs.dataset.groupId
  if (!group) return selectTab(tabs, value)
  storage.set(`docs-tabs-${group}`, value)
  for (const other of document.querySelectorAll<HTMLElement>(
    `.tabs[data-group-id="${CSS.escape(group)}"]`,
  ))
    if (other.querySelector(`:scope > .tabs__list > [data-value="${CSS.escape(value)}"]`))
      selectTab(other, value)
}

const initTabs = () => {
  for (const tabs of document.querySelectorAll<HTMLElement>('.tabs[data-group-id]')) {
    const stored = storage.get(`docs-tabs-${tabs.dataset.groupId}`)
    if (stored && tabs.querySelector(`:scope > .tabs__list > [data-value="${CSS.escape(stored)}"]`))
      selectTab(tabs, stored)
  }
  document.addEventListener('click', (event) => {
    const tab = (event.target as Element).closest<HTMLElement>('.tabs__tab')
    if (tab) activateTab(tab)
  })
  document.addEventListener('keydown', (event) => {
    const tab = (event.target as Element).closest?.<HTMLElement>('.tabs__tab')
    if (!tab || !['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return
    const all = [...tab.parentElement!.querySelectorAll<HTMLElement>('[role="tab"]')]
    const i = all.indexOf(tab)
    const next =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? all.length - 1
          : (i + (event.key === 'ArrowRight' ? 1 : -1) + all.length) % all.length
    all[next].focus()
    activateTab(all[next])
    event.preventDefault()
  })
}

const initCopyButtons = () => {
  document.addEventListener('click', async (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('.copy-button')
    const code = button?.closest('.code-block')?.querySelector('code')
    if (!button || !code) return
    try {
      await navigator.clipboard.writeText(code.textContent ?? '')
      button.textContent = 'Copied'
    } catch {
      button.textContent = 'Copy failed'
    }
    setTimeout(() => {
      button.textContent = 'Copy'
    }, 2000)
  })
}

const initColorMode = () => {
  const root = document.documentElement
  document.addEventListener('click', (event) => {
    if (!(event.target as Element).closest('.color-mode-toggle')) return
    const next = root.dataset.theme === 'dark' ? 'light' : 'dark'
    root.dataset.theme = next
    root.dataset.themeChoice = next
    storage.set('theme', next)
  })
}

const initAnnouncement = () => {
  const bar = document.querySelector<HTMLElement>('.announcement')
  if (!bar) return
  const key = `docs-announcement-${bar.dataset.announcementId}`
  if (storage.get(key) === 'closed') bar.hidden = true
  bar.querySelector('.announcement__close')?.addEventListener('click', () => {
    bar.hidden = true
    storage.set(key, 'closed')
  })
}

initConsent(clientData().config)
initTabs()
initCopyButtons()
initColorMode()
initAnnouncement()

/** Marks the words of `?highlight=` in the page content (set when coming from a search hit). */
const highlightTerms = () => {
  const terms = (new URL(location.href).searchParams.get('highlight') ?? '')
    .split(/\s+/)
    .filter((term) => term.length > 1)
    .map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  const content = document.querySelector('.markdown')
  if (!terms.length || !content) return
  const pattern = new RegExp(`\\b(${terms.join('|')})[\\w-]*`, 'gi')
  const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT)
  const nodes: Text[] = []
  while (walker.nextNode()) nodes.push(walker.currentNode as Text)
  for (const node of nodes) {
    const text = node.data
    if (!pattern.test(text)) continue
    pattern.lastIndex = 0
    const fragment = document.createDocumentFragment()
    let last = 0
    for (const match of text.matchAll(pattern)) {
      fragment.append(text.slice(last, match.index))
      const mark = document.createElement('mark')
      mark.dataset.searchHighlight = ''
      mark.textContent = match[0]
      fragment.append(mark)
      last = match.index + match[0].length
    }
    fragment.append(text.slice(last))
    node.replaceWith(fragment)
  }
}

/** The search code loads only when the reader reaches for it. */
const initSearchEntry = () => {
  const input = document.querySelector<HTMLInputElement>('#docs-search')
  let started = false
  const start = () => {
    if (started || !input) return
    started = true
    void import('./search-ui.ts').then(({ initSearch }) => initSearch(input))
  }
  input?.addEventListener('focus', start)
  // When the page is idle, fetch the search code (not the index) so the first search starts warm.
  const warm = () => {
    void import('./search-ui.ts').then(({ warmSearch }) => warmSearch())
    const worker = document.documentElement.dataset.searchWorker
    if (!worker) return
    const link = document.createElement('link')
    link.rel = 'prefetch'
    link.href = worker
    document.head.append(link)
  }
  if (input && 'requestIdleCallback' in window) requestIdleCallback(warm, { timeout: 3000 })
  else if (input) setTimeout(warm, 1500)
  document.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
      event.preventDefault()
      input?.focus()
    }
  })
  const page = document.querySelector<HTMLElement>('.search-page')
  if (page) void import('./search-page.ts').then(({ initSearchPage }) => initSearchPage(page))
}

highlightTerms()
initSearchEntry()
