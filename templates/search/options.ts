// MiniSearch settings shared by the build (cli/search/search-index.ts) and the browser worker: both
// must tokenise and stem alike, or stored indexes would not answer.
import type MiniSearch from 'minisearch'
import type { Options, SearchOptions, SearchResult } from 'minisearch'
import { stemmer } from 'stemmer'

/** A searchable section: a page's top (h = '') or one of its h2/h3 sections. */
export interface SearchDocument {
  id: number
  /** Route of the page. */
  u: string
  /** Anchor of the section, '' for the page top. */
  h: string
  /** Page title, shown with every result. */
  t: string
  /**
   * Page title and the route's last segment (`mfa-policy`), indexed on the page top only, so a
   * title match points at the page itself.
   */
  n: string
  /** Section heading ('' for the page top). */
  s: string
  /** Breadcrumbs, joined with ' › '. */
  b: string
  /** Section text, indexed. */
  x: string
  /** Start of the section text, stored for excerpts. */
  e: string
}

const SEPARATORS = /[\s,;:!?()[\]{}"'`<>|=+*/\\&^%$#@~]+/u
const JOINER = /[-._]/

/**
 * Splits technical text: `mfa-policy` gives `mfa-policy`, `mfa` and `policy`; `--port` gives
 * `port`; `v5`, `ldaps` and `GPG` stay whole (lower-cased by processTerm).
 */
export const tokenize = (text: string): string[] => {
  const tokens: string[] = []
  for (const raw of text.split(SEPARATORS)) {
    // Most words have no joiners: nothing to trim or split.
    if (!JOINER.test(raw)) {
      if (raw) tokens.push(raw)
      continue
    }
    const token = raw.replace(/^[-._]+|[-._]+$/g, '')
    if (!token) continue
    tokens.push(token)
    if (JOINER.test(token)) for (const part of token.split(/[-._]+/)) if (part) tokens.push(part)
  }
  return tokens
}

const processed = new Map<string, string>()

/**
 * Lower-cases and stems; very short and numeric tokens are kept as they are. Indexing meets the
 * same words over and over, so each is processed once (the map is dropped when it grows large).
 */
export const processTerm = (term: string): string => {
  let result = processed.get(term)
  if (result === undefined) {
    const lower = term.toLowerCase()
    result = lower.length <= 3 || /\d/.test(lower) || /[-._]/.test(lower) ? lower : stemmer(lower)
    if (processed.size > 100_000) processed.clear()
    processed.set(term, result)
  }
  return result
}

export const INDEX_OPTIONS: Options<SearchDocument> = {
  fields: ['n', 's', 'x'],
  storeFields: ['u', 'h', 't', 's', 'b', 'e'],
  tokenize,
  processTerm,
}

/** Titles weigh most, then headings, then body text; typos and partial words still match. */
export const SEARCH_OPTIONS: SearchOptions = {
  boost: { n: 8, s: 3, x: 1 },
  prefix: (term) => term.length >= 2,
  fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
  // One edit is enough for most typos and keeps fuzzy lookups cheap on big vocabularies.
  maxFuzzy: 1,
  combineWith: 'AND',
}

/**
 * When a query finds nothing: two typos in a word of four letters or more. Only then, since two
 * edits of a short word reach many others ("smtp" is two letters from "http").
 */
export const TYPO_OPTIONS: SearchOptions = {
  ...SEARCH_OPTIONS,
  fuzzy: (term) => (term.length >= 4 ? 2 : false),
  maxFuzzy: 2,
}

/** The words made by swapping two neighbouring letters of `word`. */
const swaps = (word: string): string[] =>
  Array.from(
    { length: word.length - 1 },
    (_, i) => word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2),
  ).filter((swapped) => swapped !== word)

/**
 * Mends swapped letters: a word of four letters or more that the index lacks, one swap away
 * from one it has, is replaced ("smpt" becomes "smtp"). A swap is two edits to MiniSearch's
 * distance, which would rank it with every word two letters away.
 * @param has whether the index holds a term (after processTerm)
 */
export const mendSwaps = (q: string, has: (term: string) => boolean): string =>
  (q.match(/\S+/g) ?? [])
    .map((word) => {
      const term = processTerm(word)
      if (word.length < 4 || has(term)) return word
      return swaps(word.toLowerCase()).find((swapped) => has(processTerm(swapped))) ?? word
    })
    .join(' ')

/**
 * How a section of a reference page (an API operation) scores against a guide page's with the
 * same words: a reader who types words usually wants the guide that explains them, and the
 * operations, two hundred near-identical sections, would otherwise crowd it out.
 */
export const REFERENCE_WEIGHT = 0.4

/**
 * All query words first (then with two typos a word); if nothing has them all, any of them. Equal scores go by document id,
 * so the order does not depend on how the index was loaded (whole, or chunk by chunk).
 * @param weight each document's factor on its score (1 when absent)
 */
export const runSearch = (
  index: MiniSearch<SearchDocument>,
  q: string,
  filter?: SearchOptions['filter'],
  weight?: (id: number) => number,
) => {
  const extra = {
    filter,
    ...(weight ? { boostDocument: (id: unknown) => weight(id as number) } : {}),
  }
  let results: SearchResult[] = []
  const attempts: SearchOptions[] = [
    SEARCH_OPTIONS,
    TYPO_OPTIONS,
    // Any of the words, but without two typos each: that would match nearly anything.
    { ...SEARCH_OPTIONS, combineWith: 'OR' },
  ]
  for (const options of attempts) {
    results = index.search(q, { ...options, ...extra })
    if (results.length) break
  }
  return results.sort((a, b) => b.score - a.score || a.id - b.id)
}

export const MAX_SUGGESTIONS = 8

export type MatchType = 'title' | 'heading' | 'content'

/** Which field a result matched best in, for the suggestion's type label. */
export const matchType = (match: Record<string, string[]>): MatchType => {
  const fields = new Set(Object.values(match).flat())
  return fields.has('n') ? 'title' : fields.has('s') ? 'heading' : 'content'
}
