// Main-thread side of search: one worker per search context, loaded on demand (not loaded ->
// loading -> done); queries asked while loading are answered once the index is in.
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
}

/** The search settings of this site, from the page's client data. */
export const readSettings = (): SearchSettings => {
  const { config, assets } = clientData()
  return {
    baseUrl: config.baseUrl,
    workerUrl: assets.searchWorker,
    manifestUrl: `${config.baseUrl}search-manifest.json`,
    contexts: Object.fromEntries(config.guides.map((guide) => [guide.id, guide.label])),
  }
}

let manifest: Promise<{ versions: Record<string, Record<string, string>> }> | undefined

/** The index manifest, fetched once per page. */
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

export class SearchClient {
  state: LoadState = 'not-loaded'
  private worker: Worker | undefined
  private ready: Promise<void> | undefined
  private next = 0
  private pending = new Map<number, (response: WorkerResponse) => void>()

  constructor(
    private readonly settings: SearchSettings,
    readonly context: string,
    private readonly version = 'current',
  ) {}

  private ask(
    request: Omit<WorkerRequest, 'id'> & { type: WorkerRequest['type'] },
  ): Promise<WorkerResponse> {
    const id = this.next++
    return new Promise((resolve) => {
      this.pending.set(id, resolve)
      this.worker!.postMessage({ ...request, id })
    })
  }

  /** Starts loading the context's index, once. */
  load(onState?: (state: LoadState) => void): Promise<void> {
    if (this.ready) return this.ready
    this.state = 'loading'
    onState?.(this.state)
    this.worker = new Worker(this.settings.workerUrl, { type: 'module' })
    this.worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
      this.pending.get(event.data.id)?.(event.data)
      this.pending.delete(event.data.id)
    }
    this.ready = loadManifest(this.settings).then(async (m) => {
      const url = m.versions[this.version]?.[this.context] ?? m.versions[this.version]?.all
      if (!url) throw new SearchError(`Search error: no index for version "${this.version}".`)
      const response = await this.ask({ type: 'load', url } as WorkerRequest)
      if (!response.ok) throw new SearchError(response.error)
      this.state = 'done'
      onState?.(this.state)
    })
    return this.ready
  }

  async query(q: string, limit: number): Promise<{ hits: Hit[]; total: number }> {
    await this.load()
    const response = await this.ask({ type: 'query', q, limit } as WorkerRequest)
    if (!response.ok) throw new SearchError(response.error)
    return { hits: response.hits ?? [], total: response.total ?? 0 }
  }
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
