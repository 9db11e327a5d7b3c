// Builds the static search index: one MiniSearch index of every listed page's sections, written
// as a small root file plus term chunks and stored-field chunks under content-hashed names (see
// templates/search/sharded.ts), and `search-manifest.json` naming each version's root. The
// index can be updated page by page (the dev server), discarding and re-adding one page's
// sections.

import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import MiniSearch from 'minisearch'
import { INDEX_OPTIONS, type SearchDocument } from '../templates/search/options.ts'
import type { SearchRoot, StoredFields, TermEntry } from '../templates/search/sharded.ts'
import { hashOf } from './assets.ts'
import type { Section } from './markdown/rehype-sections.ts'
import { globToRegExp } from './sitemap.ts'

export interface SearchablePage {
  route: string
  title: string
  breadcrumbs: string[]
  sections: Section[]
}

export interface SearchSettings {
  baseUrl: string
  /** The docs version the index belongs to. */
  version: string
  /** Route globs left out of the index. */
  ignore: string[]
  /** A term chunk closes once its JSON passes this size. @default 16 KiB */
  chunkBytes?: number
}

export interface SearchManifest {
  /** Version name to the address of its index root. */
  versions: Record<string, string>
}

/** The files of an index: names below `assets/search/` to content, plus the manifest. */
export interface SearchFiles {
  files: Map<string, string>
  manifest: SearchManifest
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

const storedFields = ({ u, h, t, s, b, e }: SearchDocument): StoredFields => ({ u, h, t, s, b, e })

/** A search index in a form the build cache keeps, to update it in the next build. */
export interface SearchSnapshot {
  json: ReturnType<MiniSearch['toJSON']>
  pages: [route: string, key: string, ids: number[]][]
  nextId: number
}

const BUILD_OPTIONS = { ...INDEX_OPTIONS, autoVacuum: false }

const pageKey = (page: SearchablePage) =>
  createHash('sha256').update(JSON.stringify(page)).digest('hex')

/**
 * The site's search index, kept in memory so single pages can be replaced: a replaced page's
 * documents are discarded (their postings are dropped when the files are written) and its new
 * ones added. The files are written in a canonical form, documents numbered in page order, so
 * an updated index writes the very bytes a fresh one of the same pages does.
 */
export class SearchIndex {
  private index = new MiniSearch<SearchDocument>(BUILD_OPTIONS)
  /** Route to the input's key and the ids of its documents, in page order. */
  private pages = new Map<string, { key: string; ids: number[] }>()
  private nextId = 0
  private readonly ignored: RegExp[]

  constructor(
    private readonly settings: SearchSettings,
    snapshot?: SearchSnapshot,
  ) {
    this.ignored = settings.ignore.map(globToRegExp)
    if (snapshot) {
      this.index = MiniSearch.loadJS<SearchDocument>(snapshot.json, BUILD_OPTIONS)
      this.pages = new Map(snapshot.pages.map(([route, key, ids]) => [route, { key, ids }]))
      this.nextId = snapshot.nextId
    }
  }

  snapshot(): SearchSnapshot {
    return {
      json: this.index.toJSON(),
      pages: [...this.pages].map(([route, { key, ids }]) => [route, key, ids]),
      nextId: this.nextId,
    }
  }

  private kept(page: SearchablePage) {
    return !this.ignored.some((re) => re.test(page.route))
  }

  private discard(route: string) {
    for (const id of this.pages.get(route)?.ids ?? []) this.index.discard(id)
    this.pages.delete(route)
  }

  /** Makes the index hold exactly `pages`, in this order, touching only pages that changed. */
  setPages(pages: SearchablePage[]): void {
    const kept = pages.filter((page) => this.kept(page))
    const keys = kept.map(pageKey)
    const wanted = new Set(kept.map((page) => page.route))
    for (const route of [...this.pages.keys()]) if (!wanted.has(route)) this.discard(route)
    const next = new Map<string, { key: string; ids: number[] }>()
    kept.forEach((page, i) => {
      const known = this.pages.get(page.route)
      if (known?.key === keys[i]) next.set(page.route, known)
      else next.set(page.route, { key: keys[i], ids: this.add(page) })
    })
    this.pages = next
  }

  /** Discards the documents of `removed` routes and of `pages`, then adds `pages` anew. */
  updatePages(pages: SearchablePage[], removed: string[]): void {
    for (const route of removed) this.discard(route)
    for (const page of pages) {
      const known = this.pages.get(page.route)
      for (const id of known?.ids ?? []) this.index.discard(id)
      if (!this.kept(page)) {
        this.pages.delete(page.route)
        continue
      }
      // A page keeps its place in the order (a new one goes last).
      this.pages.set(page.route, { key: pageKey(page), ids: this.add(page) })
    }
  }

  private add(page: SearchablePage): number[] {
    const docs = toDocuments(page, this.nextId)
    this.nextId += docs.length
    this.index.addAll(docs)
    return docs.map((doc) => doc.id)
  }

  /** The index as files, in canonical form: unchanged chunks keep their names. */
  files(): SearchFiles {
    const { baseUrl, version } = this.settings
    const json = this.index.toJSON()
    const shortOf = new Map<number, string>()
    for (const [short, id] of Object.entries(json.documentIds as Record<string, number>))
      shortOf.set(id, short)
    // Documents are numbered in page order, whatever ids they got in the index.
    const canonical = new Map<string, number>()
    const contexts: string[] = []
    const context: number[] = []
    const stored: Record<string, StoredFields>[] = []
    const fieldLength: Record<string, number[]> = {}
    const average = Object.keys(json.fieldIds).map(() => 0)
    for (const { ids } of this.pages.values())
      for (const id of ids) {
        const short = shortOf.get(id)!
        const n = canonical.size
        canonical.set(short, n)
        const fields = (json.storedFields as Record<string, StoredFields>)[short]
        const name = contextOf(fields.u, baseUrl)
        if (name && !contexts.includes(name)) contexts.push(name)
        context[n] = name ? contexts.indexOf(name) : -1
        const chunk = Math.floor(n / STORED_SIZE)
        stored[chunk] ??= {}
        stored[chunk][n] = fields
        const lengths = (json.fieldLength as Record<string, number[]>)[short]
        fieldLength[n] = lengths
        // MiniSearch's running average, as a fresh index adding the documents in order has it.
        for (const [f, length] of lengths.entries())
          average[f] = (average[f] * n + length) / (n + 1)
      }

    const files = new Map<string, string>()
    const add = (kind: string, content: string) => {
      const name = `${version}-${kind}.${hashOf(content)}.json`
      files.set(name, content)
      return name
    }
    const entries: TermEntry[] = []
    for (const [term, data] of json.index as TermEntry[]) {
      const live: TermEntry[1] = {}
      for (const [field, postings] of Object.entries(data)) {
        const kept: Record<string, number> = {}
        let any = false
        for (const [short, frequency] of Object.entries(postings)) {
          const n = canonical.get(short)
          if (n === undefined) continue // a discarded document
          kept[n] = frequency
          any = true
        }
        if (any) live[field] = kept
      }
      if (Object.keys(live).length) entries.push([term, live])
    }
    entries.sort((a, b) => (a[0] < b[0] ? -1 : 1))
    const chunks: SearchRoot['chunks'] = []
    let run: TermEntry[] = []
    let size = 0
    const close = () => {
      if (!run.length) return
      chunks.push({ file: add('t', JSON.stringify(run)), terms: run.map(([term]) => term) })
      run = []
      size = 0
    }
    for (const entry of entries) {
      const length = JSON.stringify(entry).length
      if (size && size + length > (this.settings.chunkBytes ?? CHUNK_BYTES)) close()
      run.push(entry)
      size += length
    }
    close()

    const storedFiles = Array.from(stored, (chunk = {}) => add('d', JSON.stringify(chunk)))
    const root: SearchRoot = {
      documentCount: canonical.size,
      nextId: canonical.size,
      fieldIds: json.fieldIds,
      averageFieldLength: average,
      fieldLength,
      contexts,
      context,
      chunks,
      stored: storedFiles,
      storedSize: STORED_SIZE,
    }
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
 * Writes the index below `<outBase>/assets/search/` and the manifest at
 * `<outBase>/search-manifest.json` while the site is being served (the dev server): each file
 * appears whole, the chunks before the manifest that names them, and the files of the index
 * before (`previous`) stay for readers that loaded it; older ones go.
 */
export const writeSearchFiles = (
  outBase: string,
  { files, manifest }: SearchFiles,
  previous: Set<string> = new Set(),
): void => {
  const dir = join(outBase, SEARCH_DIR)
  mkdirSync(dir, { recursive: true })
  for (const [name, content] of files)
    if (!existsSync(join(dir, name))) writeAtomically(join(dir, name), content)
  writeAtomically(join(outBase, 'search-manifest.json'), JSON.stringify(manifest))
  for (const name of readdirSync(dir))
    if (!files.has(name) && !previous.has(name)) rmSync(join(dir, name), { force: true })
}
