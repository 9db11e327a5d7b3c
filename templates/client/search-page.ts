// The results page: q, ctx and version come from the URL; every hit is shown grouped by page,
// with breadcrumbs and an excerpt; typing updates the URL.

import { stringsFor } from '../strings.ts'
import {
  checkVersion,
  escapeHtml,
  guideLabel,
  type Hit,
  hitUrl,
  markTerms,
  readSettings,
  SearchClient,
  sharedTitles,
} from './search-client.ts'
import { clientData } from './site-data.ts'

export const initSearchPage = (page: HTMLElement) => {
  const settings = readSettings()
  const t = stringsFor(clientData().config, location.pathname)
  const params = new URL(location.href).searchParams
  const input = page.querySelector<HTMLInputElement>('input[name="q"]')!
  const status = page.querySelector<HTMLElement>('.search-page__status')!
  const results = page.querySelector<HTMLElement>('.search-page__results')!
  const ctx = params.get('ctx')
  const version = params.get('version')
  try {
    checkVersion(version, settings.baseUrl)
  } catch (error) {
    status.textContent = (error as Error).message
    throw error
  }
  const context = ctx && settings.contexts[ctx] ? ctx : 'all'
  const client = new SearchClient(settings, context)
  input.value = params.get('q') ?? ''
  let asked = 0

  const render = (q: string, hits: Hit[], elsewhere: boolean) => {
    const groups = new Map<string, Hit[]>()
    for (const hit of hits) groups.set(hit.u, [...(groups.get(hit.u) ?? []), hit])
    // Pages whose title another result page shares show their guide before their path.
    const shared = sharedTitles([...groups.values()].map((group) => ({ ...group[0], s: '' })))
    const named = new Set([...shared].map((hit) => hit.u))
    const found =
      hits.length === 1
        ? t('search.oneResult', { query: q })
        : t('search.results', { count: hits.length, query: q })
    status.textContent = !hits.length
      ? t('search.noResults')
      : context === 'all'
        ? found
        : elsewhere
          ? t('search.otherGuides', { results: found, guide: settings.contexts[context] })
          : t('search.within', { results: found, guide: settings.contexts[context] })
    results.innerHTML = [...groups.values()]
      .map((group) => {
        const first = group[0]
        return (
          `<section class="search-result"><h2><a href="${escapeHtml(hitUrl({ ...first, h: '' }))}">${markTerms(first.t, first.terms)}</a></h2>` +
          `<p class="search-result__path">${escapeHtml(
            [named.has(first.u) ? guideLabel(first.u, settings) : '', first.b]
              .filter(Boolean)
              .join(' › '),
          )}</p><ul>` +
          group
            .map(
              (hit) =>
                `<li><a href="${escapeHtml(hitUrl(hit))}">${markTerms(hit.s || hit.t, hit.terms)}</a><p>${markTerms(hit.e, hit.terms)}</p></li>`,
            )
            .join('') +
          '</ul></section>'
        )
      })
      .join('')
  }

  const update = async () => {
    const q = input.value.trim()
    const url = new URL(location.href)
    if (q) url.searchParams.set('q', q)
    else url.searchParams.delete('q')
    history.replaceState(history.state, '', url)
    // A cleared box also gets a ticket, so an older query's answer never fills it.
    const ticket = ++asked
    if (!q) {
      status.textContent = ''
      results.innerHTML = ''
      return
    }
    if (client.state !== 'done') status.textContent = t('search.loading')
    const { hits, elsewhere } = await client.query(q, 1000)
    if (ticket === asked) render(q, hits, !!elsewhere)
  }
  page.querySelector('form')?.addEventListener('submit', (event) => {
    event.preventDefault()
    void update()
  })
  input.addEventListener('input', () => void update())
  void update()
}
