// Builds the static search index: one MiniSearch index of every listed page's sections, written
// as a small root file plus term chunks and stored-field chunks under content-hashed names (see
// templates/search/sharded.ts), and `search-manifest.json` naming each version's root. The
// index can be updated page by page (the dev server), discarding and re-adding one page's
// sections.
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

/** The site's search index, kept in memory so single pages can be replaced. */
export class SearchIndex {
  private index = new MiniSearch<SearchDocument>(INDEX_OPTIONS)
  private readonly docsOf = new Map<string, SearchDocument[]>()
  private nextId = 0
  private readonly ignored: RegExp[]

  constructor(private readonly settings: SearchSettings) {
    this.ignored = settings.ignore.map(globToRegExp)
  }

  private kept(page: SearchablePage) {
    return !this.ignored.some((re) => re.test(page.route))
  }

  /** Indexes `pages` from scratch. */
  setPages(pages: SearchablePage[]): void {
    this.index = new MiniSearch<SearchDocument>(INDEX_OPTIONS)
    this.docsOf.clear()
    this.nextId = 0
    this.updatePages(pages, [])
  }

  /** Discards the sections of `removed` routes and of `pages`, then adds `pages` anew. */
  updatePages(pages: SearchablePage[], removed: string[]): void {
    for (const route of [...removed, ...pages.map((page) => page.route)]) {
      const docs = this.docsOf.get(route)
      if (docs) this.index.removeAll(docs)
      this.docsOf.delete(route)
    }
    for (const page of pages) {
      if (!this.kept(page)) continue
      const docs = toDocuments(page, this.nextId)
      this.nextId += docs.length
      this.docsOf.set(page.route, docs)
      this.index.addAll(docs)
    }
  }

  /** The index as files: deterministic, so unchanged chunks keep their names. */
  files(): SearchFiles {
    const { baseUrl, version } = this.settings
    const json = this.index.toJSON()
    const files = new Map<string, string>()
    const add = (kind: string, content: string) => {
      const name = `${version}-${kind}.${hashOf(content)}.json`
      files.set(name, content)
      return name
    }

    const entries = (json.index as TermEntry[]).sort((a, b) => (a[0] < b[0] ? -1 : 1))
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

    const contexts: string[] = []
    const context: number[] = []
    const stored: Record<string, StoredFields>[] = []
    for (const docs of this.docsOf.values())
      for (const doc of docs) {
        const name = contextOf(doc.u, baseUrl)
        if (name && !contexts.includes(name)) contexts.push(name)
        context[doc.id] = name ? contexts.indexOf(name) : -1
        const chunk = Math.floor(doc.id / STORED_SIZE)
        stored[chunk] ??= {}
        stored[chunk][doc.id] = storedFields(doc)
      }
    for (let i = 0; i < context.length; i++) context[i] ??= -1
    const storedFiles = Array.from(stored, (chunk = {}) => add('d', JSON.stringify(chunk)))

    const documentIds = json.documentIds as Record<string, number>
    const identity = Object.entries(documentIds).every(([short, id]) => Number(short) === id)
    const root: SearchRoot = {
      documentCount: json.documentCount,
      nextId: json.nextId,
      fieldIds: json.fieldIds,
      averageFieldLength: json.averageFieldLength,
      fieldLength: json.fieldLength as Record<string, number[]>,
      ...(identity ? {} : { documentIds }),
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
