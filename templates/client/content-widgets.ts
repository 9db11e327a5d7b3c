// Behaviour of widgets inside Markdown content (server-rendered by the Markdown pipeline, not
// React): tab sets synced by group id, copy buttons, and search-term highlighting.
import { storage } from '../storage.ts'

const tabKey = (group: string) => `docs-tabs-${group}`

const selectTab = (tabs: Element, value: string) => {
  for (const tab of tabs.querySelectorAll<HTMLElement>(':scope > .tabs__list > [role="tab"]')) {
    const selected = tab.dataset.value === value
    tab.setAttribute('aria-selected', String(selected))
    tab.tabIndex = selected ? 0 : -1
  }
  for (const panel of tabs.querySelectorAll<HTMLElement>(':scope > [role="tabpanel"]'))
    panel.toggleAttribute('data-inactive', panel.dataset.value !== value)
}

const hasTab = (tabs: Element, value: string) =>
  !!tabs.querySelector(`:scope > .tabs__list > [data-value="${CSS.escape(value)}"]`)

const activateTab = (tab: HTMLElement) => {
  const tabs = tab.closest('.tabs') as HTMLElement | null
  const value = tab.dataset.value
  if (!tabs || !value) return
  const group = tabs.dataset.groupId
  if (!group) return selectTab(tabs, value)
  storage.set(tabKey(group), value)
  for (const other of document.querySelectorAll<HTMLElement>(
    `.tabs[data-group-id="${CSS.escape(group)}"]`,
  ))
    if (hasTab(other, value)) selectTab(other, value)
}

/** Shows the stored choice of every synced tab set below `scope` (after each page render). */
export const applyStoredTabs = (scope: ParentNode): void => {
  for (const tabs of scope.querySelectorAll<HTMLElement>('.tabs[data-group-id]')) {
    const stored = storage.get(tabKey(tabs.dataset.groupId!))
    if (stored && hasTab(tabs, stored)) selectTab(tabs, stored)
  }
}

const onTabKey = (event: KeyboardEvent) => {
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
}

const copyCode = async (button: HTMLButtonElement, code: Element) => {
  try {
    await navigator.clipboard.writeText(code.textContent ?? '')
    button.textContent = 'Copied'
  } catch {
    button.textContent = 'Copy failed'
  }
  setTimeout(() => {
    button.textContent = 'Copy'
  }, 2000)
}

/** Listens once on the document, so content rendered later works too. */
export const initContentWidgets = (): void => {
  document.addEventListener('click', (event) => {
    const target = event.target as Element
    const tab = target.closest<HTMLElement>('.tabs__tab')
    if (tab) return activateTab(tab)
    const button = target.closest<HTMLButtonElement>('.copy-button')
    const code = button?.closest('.code-block')?.querySelector('code')
    if (button && code) void copyCode(button, code)
  })
  document.addEventListener('keydown', onTabKey)
}

/** Marks the words of `?highlight=` in the page content (set when coming from a search hit). */
export const highlightTerms = (): void => {
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
