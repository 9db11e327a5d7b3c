// The navbar search: an ARIA combobox over at most 8 suggestions from the current guide's
// index, with keyboard use, a loading state, a footer link to all results and a clear button.
import { MAX_SUGGESTIONS } from '../search/options.ts'
import { go } from './navigation.ts'
import {
  type Hit,
  hitUrl,
  loadManifest,
  markTerms,
  readSettings,
  SearchClient,
} from './search-client.ts'

const TYPE_LABELS = { title: 'Title', heading: 'Heading', content: 'Content' } as const

/** Fetches the small manifest ahead of the first search (the index itself waits for it). */
export const warmSearch = () => {
  void loadManifest(readSettings())
}

export const initSearch = (input: HTMLInputElement) => {
  const settings = readSettings()
  const box = input.closest<HTMLElement>('.navbar-search')!
  const panel = box.querySelector<HTMLElement>('.navbar-search__panel')!
  const list = box.querySelector<HTMLElement>('[role="listbox"]')!
  const status = box.querySelector<HTMLElement>('.navbar-search__status')!
  const footer = box.querySelector<HTMLAnchorElement>('.navbar-search__footer')!
  const clear = box.querySelector<HTMLButtonElement>('.navbar-search__clear')!
  // The context follows client navigation (the router updates `data-context`).
  const clients = new Map<string, SearchClient>()
  const currentContext = () =>
    box.dataset.context && settings.contexts[box.dataset.context] ? box.dataset.context : 'all'
  const clientFor = (context: string) => {
    let client = clients.get(context)
    if (!client) {
      client = new SearchClient(settings, context)
      clients.set(context, client)
      client.load((state) => {
        if (currentContext() === context) box.dataset.state = state
      })
    }
    return client
  }
  let context = currentContext()
  let hits: Hit[] = []
  let active = -1
  let asked = 0

  const open = (value: boolean) => {
    panel.hidden = !value
    input.setAttribute('aria-expanded', String(value))
  }
  const setActive = (index: number) => {
    active = index
    for (const [i, option] of list.querySelectorAll('[role="option"]').entries())
      option.setAttribute('aria-selected', String(i === index))
    if (index >= 0) input.setAttribute('aria-activedescendant', `docs-search-option-${index}`)
    else input.removeAttribute('aria-activedescendant')
  }
  const resultsUrl = (q: string, ctx?: string) =>
    `${settings.baseUrl}search/?q=${encodeURIComponent(q)}${ctx ? `&ctx=${encodeURIComponent(ctx)}` : ''}`

  const render = (q: string) => {
    list.innerHTML = hits
      .map(
        (hit, i) =>
          `<div id="docs-search-option-${i}" role="option" aria-selected="false" data-url="${hitUrl(hit).replace(/"/g, '&quot;')}">` +
          `<span class="suggestion__title">${markTerms(hit.s || hit.t, hit.terms)}</span>` +
          `<span class="suggestion__path">${markTerms([hit.b, hit.s ? hit.t : ''].filter(Boolean).join(' › '), hit.terms)}</span>` +
          `<span class="suggestion__type">${TYPE_LABELS[hit.type]}</span></div>`,
      )
      .join('')
    status.textContent = hits.length ? '' : 'No results'
    const label = settings.contexts[context]
    if (context === 'all') {
      footer.textContent = 'See all results'
      footer.href = resultsUrl(q)
    } else if (hits.length) {
      footer.textContent = `See all results within "${label}"`
      footer.href = resultsUrl(q, context)
    } else {
      footer.textContent = `See all results outside "${label}"`
      footer.href = resultsUrl(q)
    }
    setActive(-1)
    open(true)
  }

  const update = async () => {
    const q = input.value.trim()
    clear.hidden = input.value === ''
    if (!q) {
      hits = []
      open(false)
      return
    }
    const ticket = ++asked
    context = currentContext()
    const client = clientFor(context)
    if (client.state !== 'done') {
      status.textContent = 'Loading the search index…'
      box.dataset.state = 'loading'
      open(true)
    }
    const { hits: found } = await client.query(q, MAX_SUGGESTIONS)
    box.dataset.state = 'done'
    // Only the latest query's answer is shown.
    if (ticket !== asked) return
    hits = found
    render(q)
  }

  const choose = (index: number) => {
    const option = list.querySelectorAll<HTMLElement>('[role="option"]')[index]
    if (!option?.dataset.url) return
    open(false)
    input.value = ''
    clear.hidden = true
    input.blur()
    go(option.dataset.url)
  }

  input.addEventListener('input', () => void update())
  input.addEventListener('keydown', (event) => {
    const count = hits.length
    if (event.key === 'ArrowDown' && count) {
      setActive((active + 1) % count)
      event.preventDefault()
    } else if (event.key === 'ArrowUp' && count) {
      setActive((active - 1 + count) % count)
      event.preventDefault()
    } else if (event.key === 'Enter') {
      event.preventDefault()
      if (active >= 0) choose(active)
      else if (input.value.trim()) {
        open(false)
        go(footer.href)
      }
    } else if (event.key === 'Escape') {
      if (!panel.hidden) open(false)
      else {
        input.value = ''
        clear.hidden = true
      }
      event.preventDefault()
    }
  })
  list.addEventListener('mousedown', (event) => {
    const option = (event.target as Element).closest<HTMLElement>('[role="option"]')
    if (!option) return
    event.preventDefault()
    choose([...list.children].indexOf(option))
  })
  input.addEventListener('blur', () => setTimeout(() => open(false), 150))
  clear.addEventListener('click', () => {
    input.value = ''
    clear.hidden = true
    hits = []
    open(false)
    const url = new URL(location.href)
    if (url.searchParams.has('highlight')) {
      url.searchParams.delete('highlight')
      history.replaceState(history.state, '', url)
      for (const mark of document.querySelectorAll('mark[data-search-highlight]'))
        mark.replaceWith(mark.textContent ?? '')
    }
    input.focus()
  })
  clientFor(context)
  if (input.value) void update()
}
