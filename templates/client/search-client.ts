// Main-thread side of search: one worker per page, loaded on demand (not loaded -> loading ->
// done); queries asked while loading are answered once the index root is in, each in a context.
// A client asks the worker only once typing pauses and only for its newest query, so the
// prefixes typed on the way (`p`, `pa`, … `passphrase po`) fetch no index chunks.

import { searchIndexName, variantOf } from '../../model/variants.ts'
import type { Hit, WorkerRequest, WorkerResponse } from './search-worker.ts'
import { clientData } from './site-data.ts'

export type { Hit }
export type LoadState = 'not-loaded' | 'loading' | 'done'

export interface SearchSettings {
  baseUrl: string
  workerUrl: string
  manifestUrl: string
  /** Context id to label, e.g. `admin` -> `Admin guide`. */
  contexts: Record<string, string>
  /** The index searched: the page's locale or version (model/variants.ts). */
  version?: string
}

/**
 * The search settings of this site, from the page's client data: the page at `route` searches
 * the index of its locale or version, below that one's base.
 */
export const readSettings = (route = location.pathname): SearchSettings => {
  const { config, assets } = clientData()
  const variant = variantOf(config, route)
  const guides = config.locales.items.find((item) => item.code === variant.locale)?.guides
  return {
    baseUrl: variant.base,
    workerUrl: assets.searchWorker,
    manifestUrl: `${config.baseUrl}search-manifest.json`,
    contexts: Object.fromEntries(
      config.guides.map((guide) => [guide.id, guides?.[guide.id]?.label ?? guide.label]),
    ),
    version: searchIndexName(config, variant),
  }
}

let manifest: Promise<{ versions: Record<string, string> }> | undefined

/** The index manifest (each version's index root), fetched once per page. */
export const loadManifest = (settings: SearchSettings) => {
  manifest ??= fetch(settings.manifestUrl).then((response) => response.json())
  return manifest
}

export class SearchError extends Error {
  override name = 'SearchError'
}

/** Checks a docs version prefix the way the results page receives it. */
export const checkVersion = (version: string | null, baseUrl: string) => {
  if (version && !version.startsWith(baseUrl))
    throw new SearchError(
      `Search error: the version URL "${version}" does not start with the base URL "${baseUrl}".`,
    )
}

/** One worker per page serves every context: the index is the site's, contexts filter it. */
let worker: Worker | undefined
let next = 0
/** Each client is a lane: the worker drops a lane's query once a newer one is waiting. */
let lanes = 0
const pending = new Map<number, (response: WorkerResponse) => void>()
const loaded = new Map<string, Promise<void>>()

type Request = WorkerRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never

const ask = (settings: SearchSettings, request: Request): Promise<WorkerResponse> => {
  if (!worker) {
    worker = new Worker(settings.workerUrl, { type: 'module' })
    worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
      pending.get(event.data.id)?.(event.data)
      pending.delete(event.data.id)
    }
  }
  const id = next++
  return new Promise((resolve) => {
    pending.set(id, resolve)
    worker!.postMessage({ ...request, id })
  })
}

const loadVersion = (settings: SearchSettings, version: string) => {
  let ready = loaded.get(version)
  if (!ready) {
    ready = loadManifest(settings).then(async (m) => {
      const url = m.versions[version]
      if (!url) throw new SearchError(`Search error: no index for version "${version}".`)
      const response = await ask(settings, { type: 'load', url })
      if (!response.ok) throw new SearchError(response.error)
    })
    ready.catch(() => loaded.delete(version))
    loaded.set(version, ready)
  }
  return ready
}

/**
 * How long typing must pause before a query goes to the worker. Keys come faster than this while
 * a word is typed, so only the word (or the query) it ends on is looked up; a lookup answers in
 * a few milliseconds, so results still follow the pause at once.
 */
export const QUIET_MS = 100

export interface QueryAnswer {
  hits: Hit[]
  total: number
  /** A newer query of the same client came first; this one was not looked up. */
  superseded?: boolean
  /** Nothing matched in the client's guide: the hits are from the other guides. */
  elsewhere?: boolean
}

const superseded: QueryAnswer = { hits: [], total: 0, superseded: true }

export class SearchClient {
  state: LoadState = 'not-loaded'
  private ready: Promise<void> | undefined
  private readonly lane = lanes++
  private asked = 0

  constructor(
    private readonly settings: SearchSettings,
    readonly context: string,
    private readonly version = settings.version ?? 'current',
  ) {}

  /** Starts loading the index root, once; the chunks a query needs load with the query. */
  load(onState?: (state: LoadState) => void): Promise<void> {
    if (this.ready) return this.ready
    this.state = 'loading'
    onState?.(this.state)
    this.ready = loadVersion(this.settings, this.version).then(() => {
      this.state = 'done'
      onState?.(this.state)
    })
    return this.ready
  }

  /** Answers `q` once typing has paused for QUIET_MS, unless a newer query came meanwhile. */
  async query(q: string, limit: number): Promise<QueryAnswer> {
    const ticket = ++this.asked
    await Promise.all([this.load(), new Promise((resolve) => setTimeout(resolve, QUIET_MS))])
    if (ticket !== this.asked) return superseded
    const { context, lane } = this
    const response = await ask(this.settings, { type: 'query', q, context, limit, lane })
    if (!response.ok) throw new SearchError(response.error)
    if (response.superseded) return superseded
    return {
      hits: response.hits ?? [],
      total: response.total ?? 0,
      elsewhere: response.elsewhere,
    }
  }
}

/** The label of the guide a route belongs to ('' outside the guides). */
export const guideLabel = (route: string, settings: SearchSettings): string =>
  settings.contexts[route.slice(settings.baseUrl.length).split('/')[0]] ?? ''

/**
 * The hits among `hits` whose title a hit of another page shares: they name their guide, or
 * the reader could not tell "Settings" from "Settings".
 */
export const sharedTitles = (hits: Hit[]): Set<Hit> => {
  const title = (hit: Hit) => (hit.s || hit.t).toLowerCase()
  const pages = new Map<string, Set<string>>()
  for (const hit of hits) pages.set(title(hit), (pages.get(title(hit)) ?? new Set()).add(hit.u))
  return new Set(hits.filter((hit) => pages.get(title(hit))!.size > 1))
}

/** Escapes text for HTML content and attribute values. */
export const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

/** Escapes text and wraps words starting with a matched term in <mark>. */
export const markTerms = (text: string, terms: string[]): string => {
  const escaped = escapeHtml(text)
  const words = terms
    .filter((term) => term.length > 1)
    .map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  if (!words.length) return escaped
  return escaped.replace(new RegExp(`\\b(${words.join('|')})[\\w-]*`, 'gi'), '<mark>$&</mark>')
}

/** The URL a hit leads to: the page, the query terms to highlight, the section anchor. */
export const hitUrl = (hit: Hit) =>
  `${hit.u}?highlight=${encodeURIComponent(hit.terms.join(' '))}${hit.h ? `#${hit.h}` : ''}`
