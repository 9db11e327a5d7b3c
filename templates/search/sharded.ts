// The search index as the build writes it and the browser's worker reads it: one small root
// file (document lengths, each document's search context, and the vocabulary with the chunk
// holding each term), term chunks (MiniSearch's own serialised postings for a run of terms),
// and stored-field chunks (what a hit shows). A query fetches only the chunks of the terms it
// can match, so what a visitor downloads grows with the query, not with the site.
import MiniSearch, { type SearchOptions, type SearchResult } from 'minisearch'
import {
  INDEX_OPTIONS,
  mendSwaps,
  REFERENCE_WEIGHT,
  runSearch,
  type SearchDocument,
  TYPO_OPTIONS,
} from './options.ts'

/** One term of the serialised index: field id to short document id to term frequency. */
export type TermEntry = [term: string, data: Record<string, Record<string, number>>]

export type StoredFields = Pick<SearchDocument, 'u' | 'h' | 't' | 's' | 'b' | 'e'>

export interface SearchRoot {
  documentCount: number
  nextId: number
  fieldIds: Record<string, number>
  averageFieldLength: number[]
  /** Document id to field lengths (documents are numbered from 0 in page order). */
  fieldLength: Record<string, number[]>
  /** Search contexts (guides); `context[id]` is an index into it, or -1. */
  contexts: string[]
  context: number[]
  /** Runs of documents from reference pages (`[first id, last id]`), weighted down in ranking. */
  reference?: [number, number][]
  /** Term chunk file names (beside the root), their sizes, and the sorted terms each holds. */
  chunks: { file: string; size: number; terms: string[] }[]
  /** Stored-field chunk file names; document `id` is in `stored[Math.floor(id / storedSize)]`. */
  stored: string[]
  storedSize: number
}

/** At most this many bytes of term chunks are fetched for the words a query reaches indirectly. */
export const QUERY_BYTES = 384 * 1024

/** Every index term the query can reach, exactly, by prefix or by a typo. */
const candidateTerms = (vocabulary: MiniSearch<SearchDocument>, query: string): Set<string> => {
  const terms = new Set<string>()
  // The vocabulary index holds every term once, as a document of its own, so MiniSearch's own
  // tokenising, prefix and fuzzy rules pick exactly the terms the real search can reach.
  // The widest options any attempt of runSearch uses.
  const options: SearchOptions = {
    ...TYPO_OPTIONS,
    combineWith: 'OR',
    tokenize: INDEX_OPTIONS.tokenize,
    processTerm: INDEX_OPTIONS.processTerm,
  }
  for (const result of vocabulary.search(query, options))
    for (const term of Object.keys(result.match)) terms.add(term)
  return terms
}

/**
 * The worker's view of a sharded index: loads chunks as queries need them and answers with the
 * same results a single MiniSearch index of the whole site would give.
 */
export class ShardedIndex {
  private readonly chunkOf = new Map<string, number>()
  private readonly loaded = new Map<number, TermEntry[]>()
  private readonly storedLoaded = new Map<number, Record<string, StoredFields>>()
  private readonly vocabulary: MiniSearch<SearchDocument>
  private index: MiniSearch<SearchDocument> | undefined

  constructor(
    private readonly root: SearchRoot,
    private readonly fetchJson: (file: string) => Promise<unknown>,
    /** Bytes of chunks a query may fetch for words it reaches indirectly. */
    private readonly queryBytes = QUERY_BYTES,
  ) {
    // Each term is its own document whose text is the term itself.
    this.vocabulary = new MiniSearch<SearchDocument>({
      ...INDEX_OPTIONS,
      storeFields: [],
      processTerm: (term) => term,
      tokenize: (text) => [text],
    })
    const words: SearchDocument[] = []
    root.chunks.forEach((chunk, i) => {
      for (const term of chunk.terms) {
        this.chunkOf.set(term, i)
        words.push({ id: words.length, u: '', h: '', t: '', n: '', s: '', b: '', x: term, e: '' })
      }
    })
    this.vocabulary.addAll(words)
  }

  private async load(chunks: Set<number>): Promise<void> {
    const missing = [...chunks].filter((i) => !this.loaded.has(i))
    if (!missing.length && this.index) return
    const entries = await Promise.all(
      missing.map((i) => this.fetchJson(this.root.chunks[i].file) as Promise<TermEntry[]>),
    )
    for (const [n, i] of missing.entries()) this.loaded.set(i, entries[n])
    const { root } = this
    const documentIds = Object.fromEntries(Object.keys(root.fieldLength).map((k) => [k, +k]))
    this.index = MiniSearch.loadJS<SearchDocument>(
      {
        documentCount: root.documentCount,
        nextId: root.nextId,
        documentIds,
        fieldIds: root.fieldIds,
        fieldLength: root.fieldLength,
        averageFieldLength: root.averageFieldLength,
        storedFields: {},
        dirtCount: 0,
        index: [...this.loaded.values()].flat(),
        serializationVersion: 2,
      },
      INDEX_OPTIONS,
    )
  }

  /** The results of `q` in `context` ('all' for the whole site), best first. */
  async search(query: string, context: string): Promise<SearchResult[]> {
    const q = mendSwaps(query, (term) => this.chunkOf.has(term))
    await this.load(this.chunksFor(q))
    const wanted = this.root.contexts.indexOf(context)
    const filter =
      wanted === -1 ? undefined : (result: SearchResult) => this.root.context[result.id] === wanted
    const reference = this.root.reference ?? []
    const weight = (id: number) =>
      reference.some(([first, last]) => id >= first && id <= last) ? REFERENCE_WEIGHT : 1
    return runSearch(this.index!, q, filter, reference.length ? weight : undefined)
  }

  /**
   * The chunks a query needs: those of its own words, always; then those of the words it reaches
   * by prefix or by a typo, shortest words first, while the new chunks stay within
   * QUERY_BYTES. On a small site that is every word it reaches (the results are those of the
   * whole index); on a large one a one- or two-letter prefix does not fetch half the index.
   */
  private chunksFor(q: string): Set<number> {
    const own = new Set(
      (INDEX_OPTIONS.tokenize!(q) ?? []).map((token) => INDEX_OPTIONS.processTerm!(token)),
    )
    const chunks = new Set<number>()
    const reached = [...candidateTerms(this.vocabulary, q)]
    for (const term of reached) {
      const chunk = this.chunkOf.get(term)
      if (chunk !== undefined && own.has(term)) chunks.add(chunk)
    }
    let budget = this.queryBytes
    const others = reached
      .filter((term) => !own.has(term))
      .sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
    for (const term of others) {
      const chunk = this.chunkOf.get(term)
      if (chunk === undefined || chunks.has(chunk)) continue
      const cost = this.loaded.has(chunk) ? 0 : this.root.chunks[chunk].size
      if (cost > budget) continue
      budget -= cost
      chunks.add(chunk)
    }
    return chunks
  }

  /** The stored fields of documents `ids`, fetching the chunks they are in. */
  async stored(ids: number[]): Promise<Map<number, StoredFields>> {
    const size = this.root.storedSize
    const chunks = [...new Set(ids.map((id) => Math.floor(id / size)))].filter(
      (i) => !this.storedLoaded.has(i),
    )
    const loaded = await Promise.all(
      chunks.map(
        (i) => this.fetchJson(this.root.stored[i]) as Promise<Record<string, StoredFields>>,
      ),
    )
    for (const [n, i] of chunks.entries()) this.storedLoaded.set(i, loaded[n])
    return new Map(ids.map((id) => [id, this.storedLoaded.get(Math.floor(id / size))![String(id)]]))
  }
}
