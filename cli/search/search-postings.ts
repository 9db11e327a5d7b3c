// The search index's documents once analysed, and their posting lists as MiniSearch serialises
// them (cli/search/search-index.ts puts them into files): kept compact, and made again block by block.
import { INDEX_OPTIONS, type SearchDocument } from '../../templates/search/options.ts'
import type { StoredFields } from '../../templates/search/sharded.ts'

export const FIELDS = INDEX_OPTIONS.fields
const tokenize = INDEX_OPTIONS.tokenize!
const processTerm = INDEX_OPTIONS.processTerm!

const storedJson = ({ u, h, t, s, b, e }: SearchDocument) =>
  JSON.stringify({ u, h, t, s, b, e } satisfies StoredFields)

/**
 * One searchable document, analysed: what it stores, its field lengths and its terms. Kept in
 * few objects (a JSON string, typed arrays, terms by number): an index holds about a million
 * term occurrences, which as strings and small arrays would cost far more to keep, copy,
 * deserialise and collect.
 */
export interface DocEntry {
  /** The JSON of its stored fields. */
  stored: string
  /** Unique tokens per field, as MiniSearch counts a field's length. */
  lengths: number[]
  /** Each term (its number in the index's term table) with the field it is in and how often. */
  terms: Uint32Array
  fields: Uint8Array
  counts: Uint32Array
}

/**
 * Tokenises and stems documents the way MiniSearch's `add` does; `termId` numbers the
 * terms.
 */
export const analyse = (
  documents: SearchDocument[],
  termId: (term: string) => number,
): DocEntry[] =>
  documents.map((doc) => {
    const lengths: number[] = []
    const terms: number[] = []
    const fields: number[] = []
    const counts: number[] = []
    FIELDS.forEach((field, f) => {
      const tokens = tokenize(doc[field as keyof SearchDocument] as string, field)
      lengths[f] = new Set(tokens).size
      const inField = new Map<string, number>()
      for (const token of tokens) {
        const term = processTerm(token, field)
        if (typeof term === 'string' && term) inField.set(term, (inField.get(term) ?? 0) + 1)
      }
      for (const [term, count] of inField) {
        terms.push(termId(term))
        fields.push(f)
        counts.push(count)
      }
    })
    return {
      stored: storedJson(doc),
      lengths,
      terms: Uint32Array.from(terms),
      fields: Uint8Array.from(fields),
      counts: Uint32Array.from(counts),
    }
  })

/** Documents per block of posting lists: an edited document makes its block's lists again. */
const BLOCK_SIZE = 1024

/**
 * The posting lists of documents `BLOCK_SIZE` by `BLOCK_SIZE`, as the JSON MiniSearch writes
 * them in (`"id":count,…`), by term number times the field count plus the field. A common term
 * is in nearly every document, so its whole list is never made again for one edit: only the
 * blocks holding a document not the same as the last files' at that number.
 */
export const postingBlocks = (
  docs: DocEntry[],
  changed: Uint8Array,
  base: { docs: DocEntry[]; blocks: Map<number, string>[] } | undefined,
): Map<number, string>[] => {
  const blocks: Map<number, string>[] = []
  for (let from = 0; from < docs.length; from += BLOCK_SIZE) {
    const to = Math.min(docs.length, from + BLOCK_SIZE)
    const same =
      base !== undefined &&
      Math.min(base.docs.length, from + BLOCK_SIZE) === to &&
      !changed.subarray(from, to).includes(1)
    if (same) {
      blocks.push(base.blocks[from / BLOCK_SIZE])
      continue
    }
    const lists = new Map<number, string[]>()
    for (let id = from; id < to; id++) {
      const { terms, fields, counts } = docs[id]
      for (let i = 0; i < terms.length; i++) {
        const key = terms[i] * FIELDS.length + fields[i]
        let list = lists.get(key)
        if (!list) {
          list = []
          lists.set(key, list)
        }
        list.push(`"${id}":${counts[i]}`)
      }
    }
    blocks.push(new Map(Array.from(lists, ([key, list]) => [key, list.join(',')])))
  }
  return blocks
}

/**
 * A term's entry as MiniSearch serialises it, `["term",{"field":{"doc":count,…},…}]`: objects
 * keyed by field and document ids, which JSON lists in ascending order; undefined when no
 * document holds the term.
 */
export const termJson = (term: string, id: number, blocks: Map<number, string>[]) => {
  const fields: string[] = []
  for (let f = 0; f < FIELDS.length; f++) {
    const parts: string[] = []
    for (const block of blocks) {
      const part = block.get(id * FIELDS.length + f)
      if (part) parts.push(part)
    }
    if (parts.length) fields.push(`"${f}":{${parts.join(',')}}`)
  }
  return fields.length ? `[${JSON.stringify(term)},{${fields.join(',')}}]` : undefined
}
