// Web worker: loads one static MiniSearch index and answers queries, off the main thread.
import MiniSearch, { type SearchResult } from 'minisearch'
import { INDEX_OPTIONS, matchType, runSearch, type SearchDocument } from '../search/options.ts'

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
  | { id: number; type: 'query'; q: string; limit: number }
export type WorkerResponse =
  | { id: number; ok: true; hits?: Hit[]; total?: number }
  | { id: number; ok: false; error: string }

let index: MiniSearch<SearchDocument> | undefined

const toHit = (result: SearchResult): Hit => ({
  u: result.u,
  h: result.h,
  t: result.t,
  s: result.s,
  b: result.b,
  e: result.e,
  terms: result.queryTerms,
  type: matchType(result.match),
})

const search = (q: string) => (index ? runSearch(index, q) : [])

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const request = event.data
  try {
    if (request.type === 'load') {
      const response = await fetch(request.url)
      if (!response.ok) throw new Error(`search index ${request.url}: HTTP ${response.status}`)
      index = MiniSearch.loadJSON<SearchDocument>(await response.text(), INDEX_OPTIONS)
      self.postMessage({ id: request.id, ok: true } satisfies WorkerResponse)
      return
    }
    const results = search(request.q)
    self.postMessage({
      id: request.id,
      ok: true,
      hits: results.slice(0, request.limit).map(toHit),
      total: results.length,
    } satisfies WorkerResponse)
  } catch (error) {
    self.postMessage({
      id: request.id,
      ok: false,
      error: error instanceof Error ? error.message : String(error),
    } satisfies WorkerResponse)
  }
}
