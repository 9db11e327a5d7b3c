// Web worker: reads the site's sharded search index (templates/search/sharded.ts), fetching the
// root once and term and stored-field chunks as queries need them, and answers queries off the
// main thread.
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
  | { id: number; type: 'query'; q: string; context: string; limit: number }
export type WorkerResponse =
  | { id: number; ok: true; hits?: Hit[]; total?: number }
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

const search = async (q: string, context: string, limit: number) => {
  if (!index) return { hits: [], total: 0 }
  const results = await index.search(q, context)
  const top = results.slice(0, limit)
  const stored = await index.stored(top.map((result) => result.id))
  const hits = top.map(
    (result): Hit => ({
      ...stored.get(result.id)!,
      terms: result.queryTerms,
      type: matchType(result.match),
    }),
  )
  return { hits, total: results.length }
}

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const request = event.data
  try {
    if (request.type === 'load') {
      await load(request.url)
      self.postMessage({ id: request.id, ok: true } satisfies WorkerResponse)
      return
    }
    const { hits, total } = await search(request.q, request.context, request.limit)
    self.postMessage({ id: request.id, ok: true, hits, total } satisfies WorkerResponse)
  } catch (error) {
    self.postMessage({
      id: request.id,
      ok: false,
      error: error instanceof Error ? error.message : String(error),
    } satisfies WorkerResponse)
  }
}
