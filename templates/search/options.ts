// MiniSearch settings shared by the build (cli/search-index.ts) and the browser worker: both
// must tokenise and stem alike, or stored indexes would not answer.
import type MiniSearch from 'minisearch'
import type { Options, SearchOptions } from 'minisearch'
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
  // One edit is enough for typos and keeps fuzzy lookups cheap on big vocabularies.
  maxFuzzy: 1,
  combineWith: 'AND',
}

/**
 * All query words first; if nothing has them all, any of them. Equal scores go by document id,
 * so the order does not depend on how the index was loaded (whole, or chunk by chunk).
 */
export const runSearch = (
  index: MiniSearch<SearchDocument>,
  q: string,
  filter?: SearchOptions['filter'],
) => {
  const options = { ...SEARCH_OPTIONS, filter }
  const strict = index.search(q, options)
  const results = strict.length ? strict : index.search(q, { ...options, combineWith: 'OR' })
  return results.sort((a, b) => b.score - a.score || a.id - b.id)
}

export const MAX_SUGGESTIONS = 8

export type MatchType = 'title' | 'heading' | 'content'

/** Which field a result matched best in, for the suggestion's type label. */
export const matchType = (match: Record<string, string[]>): MatchType => {
  const fields = new Set(Object.values(match).flat())
  return fields.has('n') ? 'title' : fields.has('s') ? 'heading' : 'content'
}
