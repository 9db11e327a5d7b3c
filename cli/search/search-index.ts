// Builds the static search index: one MiniSearch index of every listed page's sections, written
// as a small root file plus term chunks and stored-field chunks under content-hashed names (see
// templates/search/sharded.ts), and `search-manifest.json` naming each version's root. The
// index can be updated page by page (the dev server), discarding and re-adding one page's
// sections, and its files are made again only where documents changed (cli/search/search-postings.ts
// keeps the analysed documents and their posting lists).

import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import type { SearchDocument } from '../../templates/search/options.ts'
import type { SearchRoot } from '../../templates/search/sharded.ts'
import { hashOf } from '../cache/hash.ts'
import type { Section } from '../markdown/rehype-sections.ts'
import { globToRegExp } from '../output/sitemap.ts'
import { analyse, type DocEntry, FIELDS, postingBlocks, termJson } from './search-postings.ts'

export interface SearchablePage {
  route: string
  title: string
  breadcrumbs: string[]
  sections: Section[]
}

/**
 * A page as the index is given it: with `key` (what stands for its content), its sections may be
 * left out while the index holds the page under that key.
 */
export interface IndexedPage extends Omit<SearchablePage, 'sections'> {
  key?: string
  sections?: Section[]
  /** A build cache file holding the sections (cli/cache/rendered-files.ts), sent instead of them. */
  file?: string
}

export interface SearchSettings {
  baseUrl: string
  /** The docs version the index belongs to. */
  version: string
  /** Route globs left out of the index. */
  ignore: string[]
  /** Routes of reference pages (the API reference), whose sections rank below guide pages'. */
  reference?: string[]
  /** A term chunk closes once its JSON passes this size. @default 16 KiB */
  chunkBytes?: number
}

export interface SearchManifest {
  /** Version name to the address of its index root. */
  versions: Record<string, string>
}

/** The files of an index: names below `assets/search/` to content, plus the manifest. */
export interface SearchFiles {
  /** Name to content; the content is '' when `written`. */
  files: Map<string, string>
  manifest: SearchManifest
  /** The search worker has written `files` (not the manifest) into the output folder. */
  written?: boolean
}

export const ALL_CONTEXT = 'all'
export const SEARCH_DIR = 'assets/search'
const EXCERPT_LENGTH = 240
/** One very common term may pass the chunk size alone. */
const CHUNK_BYTES = 16 * 1024
/** Documents per stored-field chunk: a page of suggestions needs a few small files. */
const STORED_SIZE = 32

/** The guide a route belongs to: its first segment below the base URL. */
export const contextOf = (route: string, baseUrl: string) =>
  route.slice(baseUrl.length).split('/')[0] || undefined

/** A page's searchable documents: its top and each h2/h3 section, ids from `firstId` on. */
export const toDocuments = (page: SearchablePage, firstId = 0): SearchDocument[] => {
  const b = page.breadcrumbs.join(' › ')
  return page.sections.map((section, i) => ({
    id: firstId + i,
    u: page.route,
    h: section.id,
    t: page.title,
    n:
      section.id === ''
        ? `${page.title} ${page.route.split('/').filter(Boolean).at(-1) ?? ''}`
        : '',
    s: section.heading,
    b,
    x: section.text,
    e: section.text.slice(0, EXCERPT_LENGTH),
  }))
}

/** What the last files were made of, for the next files to make only what changed. */
interface Baseline {
  /** The documents by number (the very objects the index holds while they are unchanged). */
  docs: DocEntry[]
  /** Each term's JSON in the term chunks, by term number; undefined: in no document. */
  entries: (string | undefined)[]
  /** See `postingBlocks`. */
  blocks: Map<number, string>[]
  chunks: SearchRoot['chunks']
  /** The stored-field chunks' names. */
  stored: string[]
}

/** A search index in a form the build cache keeps, to update it in the next build. */
export interface SearchSnapshot {
  /** The term table the documents' term numbers point into. */
  terms: string[]
  pages: [route: string, key: string, docs: DocEntry[]][]
  /** The last files made of these pages, if any. */
  baseline?: Baseline
}

const pageKey = (page: SearchablePage) =>
  createHash('sha256').update(JSON.stringify(page)).digest('hex')

/**
 * The site's search index, kept as each page's analysed documents so single pages can be
 * replaced, and written as MiniSearch's own serialised postings (templates/search/sharded.ts
 * loads them into MiniSearch). Documents are numbered in page order, so an index updated page by
 * page writes the very bytes a fresh one of the same pages does.
 */
export class SearchIndex {
  /** Route to the input's key and its documents, in page order. */
  private pages = new Map<string, { key: string; docs: DocEntry[] }>()
  private readonly ignored: RegExp[]
  /** Every term analysed so far, by number (a term no page has any more stays, unused). */
  private terms: string[] = []
  private readonly termIds = new Map<string, number>()
  private baseline: Baseline | undefined
  private readonly termId = (term: string): number => {
    let id = this.termIds.get(term)
    if (id === undefined) {
      id = this.terms.push(term) - 1
      this.termIds.set(term, id)
    }
    return id
  }

  constructor(
    private readonly settings: SearchSettings,
    snapshot?: SearchSnapshot,
  ) {
    this.ignored = settings.ignore.map(globToRegExp)
    if (snapshot) {
      this.terms = snapshot.terms
      for (const [id, term] of this.terms.entries()) this.termIds.set(term, id)
      this.pages = new Map(snapshot.pages.map(([route, key, docs]) => [route, { key, docs }]))
      this.baseline = snapshot.baseline
    }
  }

  snapshot(): SearchSnapshot {
    return {
      terms: this.terms,
      pages: [...this.pages].map(([route, { key, docs }]) => [route, key, docs]),
      baseline: this.baseline,
    }
  }

  private kept(page: IndexedPage) {
    return !this.ignored.some((re) => re.test(page.route))
  }

  /** Routes of `pages` that come without sections and that the index does not hold as they are. */
  missing(pages: IndexedPage[]): string[] {
    return pages
      .filter((page) => !page.sections && page.file === undefined && this.kept(page))
      .filter((page) => page.key === undefined || this.pages.get(page.route)?.key !== page.key)
      .map((page) => page.route)
  }

  /**
   * Makes the index hold exactly `pages`, in this order, analysing only pages that changed (a
   * page without sections must be held under its key: see `missing`); returns how many it
   * analysed. `read` gives the sections of a page sent with a `file`, read only when analysed.
   */
  setPages(pages: IndexedPage[], read?: (file: string) => Section[]): number {
    const next = new Map<string, { key: string; docs: DocEntry[] }>()
    let analysed = 0
    for (const page of pages) {
      if (!this.kept(page)) continue
      const key = page.key ?? pageKey(page as SearchablePage)
      const known = this.pages.get(page.route)
      if (known?.key === key) next.set(page.route, known)
      else {
        const sections = page.sections ?? (page.file === undefined ? undefined : read?.(page.file))
        if (!sections) throw new Error(`The search index needs the sections of ${page.route}`)
        const docs = analyse(toDocuments({ ...page, sections }), this.termId)
        next.set(page.route, { key, docs })
        analysed++
      }
    }
    this.pages = next
    return analysed
  }

  /** Drops the documents of `removed` routes and replaces those of `pages` (a new one goes last). */
  updatePages(pages: SearchablePage[], removed: string[]): void {
    for (const route of removed) this.pages.delete(route)
    for (const page of pages)
      if (this.kept(page))
        this.pages.set(page.route, {
          key: pageKey(page),
          docs: analyse(toDocuments(page), this.termId),
        })
      else this.pages.delete(page.route)
  }

  /**
   * The index as files: deterministic, so unchanged chunks keep their names. Only what changed
   * since the last files (or the snapshot's) is made again: the posting lists of the terms in
   * documents that are not the same at the same number, and the names of chunks that hold none
   * of them are kept rather than hashed again.
   */
  files(): SearchFiles {
    const { baseUrl, version } = this.settings
    const base = this.baseline
    const docs: DocEntry[] = []
    const contexts: string[] = []
    const context: number[] = []
    const reference: [number, number][] = []
    for (const [route, page] of this.pages) {
      const name = contextOf(route, baseUrl)
      if (name && !contexts.includes(name)) contexts.push(name)
      const contextId = name ? contexts.indexOf(name) : -1
      // The page's top (its title and introduction) ranks as a guide page's does.
      if (this.settings.reference?.includes(route) && page.docs.length > 1)
        reference.push([docs.length + 1, docs.length + page.docs.length - 1])
      for (const doc of page.docs) {
        context.push(contextId)
        docs.push(doc)
      }
    }
    const n = docs.length
    // Documents not the same as the last files' at their number, and the terms they hold.
    const changed = new Uint8Array(Math.max(n, base?.docs.length ?? 0))
    const dirty = new Uint8Array(this.terms.length)
    const mark = (doc: DocEntry | undefined) => {
      if (doc) for (const term of doc.terms) dirty[term] = 1
    }
    for (let id = 0; id < changed.length; id++)
      if (!base || base.docs[id] !== docs[id]) {
        changed[id] = 1
        mark(base?.docs[id])
        mark(docs[id])
      }
    if (!base) dirty.fill(1)

    const stored: string[][] = []
    const fieldLength: Record<string, number[]> = {}
    const average = FIELDS.map(() => 0)
    docs.forEach((doc, id) => {
      const chunk = Math.floor(id / STORED_SIZE)
      stored[chunk] ??= []
      stored[chunk].push(`"${id}":${doc.stored}`)
      fieldLength[id] = doc.lengths
      // MiniSearch's running average, as it computes it while adding documents in order.
      for (const [f, length] of doc.lengths.entries())
        average[f] = (average[f] * id + length) / (id + 1)
    })
    const blocks = postingBlocks(docs, changed, base)
    // Each term's JSON, by number: a clean term's postings are the last files' (every document
    // holding it is the same, at the same number).
    const entries = this.terms.map((term, id) =>
      dirty[id] ? termJson(term, id, blocks) : base?.entries[id],
    )

    const files = new Map<string, string>()
    const add = (kind: string, content: string, known?: string) => {
      const name = known ?? `${version}-${kind}.${hashOf(content)}.json`
      files.set(name, content)
      return name
    }
    const lastChunks = new Map(base?.chunks.map((chunk) => [chunk.terms[0], chunk]))
    const keptChunk = (run: string[], ids: number[]) => {
      const last = lastChunks.get(run[0])
      const same =
        last?.terms.length === run.length &&
        run.every((term, i) => term === last.terms[i] && !dirty[ids[i]])
      return same ? last : undefined
    }
    const terms = this.terms.filter((_, id) => entries[id] !== undefined).sort()
    const chunks: SearchRoot['chunks'] = []
    let run: string[] = []
    let runIds: number[] = []
    let size = 0
    // A chunk is the JSON of its `TermEntry[]`, put together from each term's JSON, which is
    // also what measures the chunk.
    const close = () => {
      if (!run.length) return
      const json = `[${runIds.map((id) => entries[id]).join(',')}]`
      chunks.push({
        file: add('t', json, keptChunk(run, runIds)?.file),
        size: json.length,
        terms: run,
      })
      run = []
      runIds = []
      size = 0
    }
    for (const term of terms) {
      const id = this.termIds.get(term)!
      const length = entries[id]!.length
      if (size && size + length + 1 > (this.settings.chunkBytes ?? CHUNK_BYTES)) close()
      run.push(term)
      runIds.push(id)
      size += length + 1
    }
    close()

    const storedFiles = Array.from(stored, (chunk = [], k) => {
      const ids = { from: k * STORED_SIZE, to: Math.min(n, (k + 1) * STORED_SIZE) }
      const same =
        base !== undefined &&
        Math.min(base.docs.length, (k + 1) * STORED_SIZE) === ids.to &&
        !changed.subarray(ids.from, ids.to).includes(1)
      return add('d', `{${chunk.join(',')}}`, same ? base.stored[k] : undefined)
    })
    const root: SearchRoot = {
      documentCount: n,
      nextId: n,
      fieldIds: Object.fromEntries(FIELDS.map((field, f) => [field, f])),
      averageFieldLength: average,
      fieldLength,
      contexts,
      context,
      ...(reference.length ? { reference } : {}),
      chunks,
      stored: storedFiles,
      storedSize: STORED_SIZE,
    }
    this.baseline = { docs, entries, blocks, chunks, stored: storedFiles }
    const rootFile = add('root', JSON.stringify(root))
    return { files, manifest: { versions: { [version]: `${baseUrl}${SEARCH_DIR}/${rootFile}` } } }
  }
}

const writeAtomically = (file: string, content: string) => {
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, content)
  renameSync(temporary, file)
}

/**
 * Writes the index files below `<outBase>/assets/search/` that are not there yet (a name is its
 * content's hash), each appearing whole; returns that folder.
 */
export const writeIndexFiles = (outBase: string, files: SearchFiles['files']): string => {
  const dir = join(outBase, SEARCH_DIR)
  mkdirSync(dir, { recursive: true })
  for (const [name, content] of files)
    if (!existsSync(join(dir, name))) writeAtomically(join(dir, name), content)
  return dir
}

/**
 * Writes the index below `<outBase>/assets/search/` and the manifest at
 * `<outBase>/search-manifest.json` while the site is being served (the dev server): each file
 * appears whole, the chunks before the manifest that names them, and the files of the index
 * before (`previous`) stay for readers that loaded it; older ones go. Other versions' (and
 * locales') indexes, which the build made beside this one, stay in the manifest and the folder.
 */
export const writeSearchFiles = (
  outBase: string,
  { files, manifest }: SearchFiles,
  previous: Set<string> = new Set(),
): void => {
  const dir = writeIndexFiles(outBase, files)
  const manifestFile = join(outBase, 'search-manifest.json')
  const before: SearchManifest = existsSync(manifestFile)
    ? JSON.parse(readFileSync(manifestFile, 'utf8'))
    : { versions: {} }
  const merged = { versions: { ...before.versions, ...manifest.versions } }
  writeAtomically(manifestFile, JSON.stringify(merged))
  const own = Object.keys(manifest.versions).map((version) => `${version}-`)
  for (const name of readdirSync(dir))
    if (own.some((prefix) => name.startsWith(prefix)) && !files.has(name) && !previous.has(name))
      rmSync(join(dir, name), { force: true })
}
