// Web worker: reads the site's sharded search index (templates/search/sharded.ts), fetching the
// root once and term and stored-field chunks as queries need them, and answers queries off the
// main thread. Queries run one at a time; a query whose client has asked a newer one by the
// time its turn comes (or by the time its hits need their stored fields) is answered as
// superseded without fetching anything more, so a burst of queries fetches for its last one.
// A query that finds nothing in its guide is answered from the whole site, marked so.
import { matchType } from '../search/options.ts'
import { type SearchRoot, ShardedIndex } from '../search/sharded.ts'

export interface Hit {
  u: string
  h: string
  t: string
  s: string
  b: string
  e: string
  terms: string[]
  type: ReturnType<typeof matchType>
}

export type WorkerRequest =
  | { id: number; type: 'load'; url: string }
  | { id: number; type: 'query'; q: string; context: string; limit: number; lane: number }
export type WorkerResponse =
  | {
      id: number
      ok: true
      hits?: Hit[]
      total?: number
      superseded?: boolean
      /** Nothing matched in the context asked: these hits are the whole site's. */
      elsewhere?: boolean
    }
  | { id: number; ok: false; error: string }

let index: ShardedIndex | undefined
let loading: Promise<ShardedIndex> | undefined

const fetchJson = async (url: string): Promise<unknown> => {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`search index ${url}: HTTP ${response.status}`)
  return response.json()
}

const load = (url: string) => {
  loading ??= fetchJson(url).then((root) => {
    // Chunk names are relative to the root's address.
    const base = new URL('./', new URL(url, location.href)).href
    index = new ShardedIndex(root as SearchRoot, (file) => fetchJson(base + file))
    return index
  })
  loading.catch(() => {
    loading = undefined
  })
  return loading
}

/** The newest query id of each lane (a client on the page). */
const newest = new Map<number, number>()
let running: Promise<unknown> = Promise.resolve()

const search = async (request: Extract<WorkerRequest, { type: 'query' }>) => {
  const { q, context, limit } = request
  const stale = () => newest.get(request.lane) !== request.id
  if (!index) return { hits: [], total: 0 }
  if (stale()) return { superseded: true }
  let results = await index.search(q, context)
  // Nothing in this guide: the best of the other guides beats an empty list.
  const elsewhere = !results.length && context !== 'all'
  if (elsewhere) results = await index.search(q, 'all')
  if (stale()) return { superseded: true }
  const top = results.slice(0, limit)
  const stored = await index.stored(top.map((result) => result.id))
  const hits = top.map(
    (result): Hit => ({
      ...stored.get(result.id)!,
      terms: result.queryTerms,
      type: matchType(result.match),
    }),
  )
  return { hits, total: results.length, ...(elsewhere && hits.length ? { elsewhere } : {}) }
}

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const request = event.data
  try {
    if (request.type === 'load') {
      await load(request.url)
      self.postMessage({ id: request.id, ok: true } satisfies WorkerResponse)
      return
    }
    newest.set(request.lane, request.id)
    const turn = running.then(() => search(request))
    running = turn.catch(() => undefined)
    self.postMessage({ id: request.id, ok: true, ...(await turn) } satisfies WorkerResponse)
  } catch (error) {
    self.postMessage({
      id: request.id,
      ok: false,
      error: error instanceof Error ? error.message : String(error),
    } satisfies WorkerResponse)
  }
}
