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

initTabs()
initCopyButtons()
initColorMode()
initAnnouncement()
