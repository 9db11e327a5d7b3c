// The navbar search (part of the navbar island): an ARIA combobox over at most 8 suggestions
// from the current guide's index, with keyboard use, a loading state, a footer link to all
// results and a clear button. The search code and its worker load on first focus (Ctrl or
// Cmd+K focuses the box); when the page is idle, the code is fetched ahead.
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react'
import { searchIndexName, variantOf } from '../model/variants.ts'
import type { Hit, LoadState, SearchClient } from './client/search-client.ts'
import { whenIdle } from './idle.ts'
import { useSite } from './SiteContext.tsx'
import { MAX_SUGGESTIONS } from './search/options.ts'
import { stringsFor } from './strings.ts'

type SearchModule = typeof import('./client/search-client.ts')

const TYPE_LABELS = { title: 'Title', heading: 'Heading', content: 'Content' } as const

let searchModule: Promise<SearchModule> | undefined
const loadSearchModule = () => {
  searchModule ??= import('./client/search-client.ts')
  return searchModule
}

/** Where a click on a hit goes: client navigation when the router runs. */
const navigation = () => import('./client/navigation.ts')

export function SearchBox({ context, route }: { context: string; route: string }) {
  const { config, assets } = useSite()
  const t = stringsFor(config, route)
  // The page's locale or version has its own index and results page.
  const variant = variantOf(config, route)
  const [query, setQuery] = useState('')
  const [hits, setHits] = useState<Hit[]>([])
  const [active, setActive] = useState(-1)
  const [open, setOpen] = useState(false)
  const [state, setState] = useState<LoadState>('not-loaded')
  const [answered, setAnswered] = useState('')
  // The hits come from the other guides: the current one had none.
  const [elsewhere, setElsewhere] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const clients = useRef(new Map<string, SearchClient>())
  const asked = useRef(0)
  // Escape or leaving the box closes the suggestions until the next keystroke or focus, so an
  // answer still on its way does not open them again.
  const dismissed = useRef(false)
  const known = config.guides.find((guide) => guide.id === context)
  const version = searchIndexName(config, variant)
  const ctx = known ? context : 'all'

  // The search code, kept for rendering hits (they only exist once it has loaded).
  const [module, setModule] = useState<SearchModule>()
  const clientFor = useCallback(
    async (id: string) => {
      const module = await loadSearchModule()
      setModule(module)
      let client = clients.current.get(`${version} ${id}`)
      if (!client) {
        client = new module.SearchClient(module.readSettings(variant.base), id)
        clients.current.set(`${version} ${id}`, client)
      }
      return client
    },
    [version, variant.base],
  )

  // Ctrl/Cmd+K focuses the box; an idle page fetches the search code and worker ahead.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault()
        input.current?.focus()
      }
    }
    document.addEventListener('keydown', onKey)
    const warm = () => {
      void loadSearchModule().then((module) => module.loadManifest(module.readSettings()))
      const link = document.createElement('link')
      link.rel = 'prefetch'
      link.href = assets.searchWorker
      document.head.append(link)
    }
    const cancelWarm = whenIdle(warm, { timeout: 3000, fallbackDelay: 1500 })
    return () => {
      document.removeEventListener('keydown', onKey)
      cancelWarm()
    }
  }, [assets.searchWorker])

  const startLoading = () => {
    dismissed.current = false
    void clientFor(ctx).then((client) => {
      if (client.state === 'not-loaded') setState('loading')
      client.load((s) => setState(s)).catch(() => {})
    })
  }

  // The box works before the page is live: a reader may focus it and type while the React part
  // loads. Hydration keeps the text but saw neither event, so the box catches up once, here.
  const caughtUp = useRef(false)
  useEffect(() => {
    if (caughtUp.current) return
    caughtUp.current = true
    const box = input.current
    if (!box) return
    if (document.activeElement === box) startLoading()
    if (box.value) void search(box.value)
  })

  const search = async (value: string) => {
    setQuery(value)
    setActive(-1)
    dismissed.current = false
    const q = value.trim()
    // Every change gets a ticket, so an answer to an older query (even one typed before the
    // box was cleared) is never shown.
    const ticket = ++asked.current
    if (!q) {
      setHits([])
      setOpen(false)
      return
    }
    const client = await clientFor(ctx)
    if (client.state !== 'done') {
      setState('loading')
      if (!dismissed.current) setOpen(true)
    }
    const { hits: found, elsewhere } = await client.query(q, MAX_SUGGESTIONS)
    setState('done')
    // Only the latest query's answer is shown.
    if (ticket !== asked.current) return
    setHits(found)
    setElsewhere(!!elsewhere)
    setAnswered(q)
    if (!dismissed.current) setOpen(true)
  }

  const resultsUrl = (q: string, within?: string) =>
    `${variant.base}search/?q=${encodeURIComponent(q)}${within ? `&ctx=${encodeURIComponent(within)}` : ''}`
  const label =
    config.locales.items.find((item) => item.code === variant.locale)?.guides?.[context]?.label ??
    known?.label
  const footer =
    ctx === 'all'
      ? { text: t('search.seeAll'), href: resultsUrl(answered) }
      : hits.length && !elsewhere
        ? {
            text: t('search.seeAllWithin', { guide: label ?? '' }),
            href: resultsUrl(answered, ctx),
          }
        : { text: t('search.seeAllOutside', { guide: label ?? '' }), href: resultsUrl(answered) }

  const go = (href: string) => {
    setOpen(false)
    setQuery('')
    setHits([])
    input.current?.blur()
    void navigation().then(({ go }) => go(href))
  }

  const clear = () => {
    setQuery('')
    setHits([])
    setOpen(false)
    const url = new URL(location.href)
    if (url.searchParams.has('highlight')) {
      url.searchParams.delete('highlight')
      history.replaceState(history.state, '', url)
      for (const mark of document.querySelectorAll('mark[data-search-highlight]'))
        mark.replaceWith(mark.textContent ?? '')
    }
    input.current?.focus()
  }

  const onKeyDown = (event: KeyboardEvent) => {
    const count = hits.length
    if (event.key === 'ArrowDown' && count) setActive((active + 1) % count)
    else if (event.key === 'ArrowUp' && count) setActive((active - 1 + count) % count)
    else if (event.key === 'Enter') {
      if (active >= 0 && hits[active]) choose(hits[active])
      else if (query.trim()) go(footer.href)
    } else if (event.key === 'Escape') {
      dismissed.current = true
      if (open) setOpen(false)
      else setQuery('')
    } else return
    event.preventDefault()
  }

  const choose = (hit: Hit) => module && go(module.hitUrl(hit))

  const loading = state === 'loading' && open && !hits.length
  const shared = module ? module.sharedTitles(hits) : new Set<Hit>()
  const settings = module?.readSettings()
  // data-answered names the query the suggestions are for (tests and bench/search.ts wait on it).
  return (
    <search
      className={query ? 'navbar-search navbar-search--filled' : 'navbar-search'}
      data-context={ctx}
      data-state={state}
      data-answered={answered || undefined}
    >
      <input
        ref={input}
        id="docs-search"
        type="text"
        role="combobox"
        aria-label={t('search.label')}
        aria-expanded={open}
        aria-controls="docs-search-listbox"
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 ? `docs-search-option-${active}` : undefined}
        autoComplete="off"
        placeholder={t('search.placeholder')}
        value={query}
        onFocus={startLoading}
        onChange={(event) => void search(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          dismissed.current = true
          setTimeout(() => setOpen(false), 150)
        }}
      />
      <button
        type="button"
        className="navbar-search__clear"
        aria-label={t('search.clear')}
        hidden={query === ''}
        onClick={clear}
      >
        ×
      </button>
      <div className="navbar-search__panel" hidden={!open}>
        <div id="docs-search-listbox" role="listbox" aria-label={t('search.suggestions')}>
          {module
            ? hits.map((hit, i) => (
                <div
                  key={`${hit.u}#${hit.h}`}
                  id={`docs-search-option-${i}`}
                  role="option"
                  aria-selected={i === active}
                  data-url={module.hitUrl(hit)}
                  tabIndex={-1}
                  onMouseDown={(event) => {
                    event.preventDefault()
                    choose(hit)
                  }}
                >
                  <span
                    className="suggestion__title"
                    dangerouslySetInnerHTML={{
                      __html: module.markTerms(hit.s || hit.t, hit.terms),
                    }}
                  />
                  <span
                    className="suggestion__path"
                    dangerouslySetInnerHTML={{
                      __html: module.markTerms(
                        [
                          shared.has(hit) && settings ? module.guideLabel(hit.u, settings) : '',
                          hit.b,
                          hit.s ? hit.t : '',
                        ]
                          .filter(Boolean)
                          .join(' › '),
                        hit.terms,
                      ),
                    }}
                  />
                  <span className="suggestion__type">{TYPE_LABELS[hit.type]}</span>
                </div>
              ))
            : null}
        </div>
        <p className="navbar-search__status" aria-live="polite">
          {loading
            ? t('search.loading')
            : open && !hits.length
              ? t('search.noResults')
              : elsewhere
                ? t('search.fromOtherGuides', { guide: label ?? '' })
                : ''}
        </p>
        <a
          className="navbar-search__footer"
          href={footer.href}
          onMouseDown={(event) => event.preventDefault()}
        >
          {footer.text}
        </a>
      </div>
    </search>
  )
}
