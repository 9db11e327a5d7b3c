// Builds the static search indexes: one MiniSearch index per docs version and search context
// (each guide, plus `all`), serialised for loading as is in the browser's worker.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import MiniSearch from 'minisearch'
import { INDEX_OPTIONS, type SearchDocument } from '../templates/search/options.ts'
import { hashOf } from './assets.ts'
import type { Section } from './markdown/rehype-sections.ts'
import { globToRegExp } from './sitemap.ts'

export interface SearchablePage {
  route: string
  title: string
  breadcrumbs: string[]
  sections: Section[]
}

export const ALL_CONTEXT = 'all'
const EXCERPT_LENGTH = 240

/** The guide a route belongs to: its first segment below the base URL. */
export const contextOf = (route: string, baseUrl: string) =>
  route.slice(baseUrl.length).split('/')[0] || undefined

export const toDocuments = (pages: SearchablePage[]): SearchDocument[] => {
  const documents: SearchDocument[] = []
  for (const page of pages) {
    const b = page.breadcrumbs.join(' › ')
    for (const section of page.sections) {
      documents.push({
        id: documents.length,
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
      })
    }
  }
  return documents
}

export const buildIndex = (documents: SearchDocument[]): string => {
  const index = new MiniSearch<SearchDocument>(INDEX_OPTIONS)
  index.addAll(documents)
  return JSON.stringify(index)
}

export interface SearchManifest {
  /** Version name to context to index URL. */
  versions: Record<string, Record<string, string>>
}

/**
 * Writes every context's index under `<outBase>/assets/search/` with a content hash, and the
 * manifest at `<outBase>/search-manifest.json`. Pages matching `ignore` stay out.
 */
export const writeSearchIndexes = (
  outBase: string,
  baseUrl: string,
  version: string,
  pages: SearchablePage[],
  ignore: string[],
): SearchManifest => {
  const ignored = ignore.map(globToRegExp)
  const kept = pages.filter((page) => !ignored.some((re) => re.test(page.route)))
  const contexts = new Map<string, SearchablePage[]>([[ALL_CONTEXT, kept]])
  for (const page of kept) {
    const context = contextOf(page.route, baseUrl)
    if (!context) continue
    if (!contexts.has(context)) contexts.set(context, [])
    contexts.get(context)!.push(page)
  }
  mkdirSync(join(outBase, 'assets', 'search'), { recursive: true })
  const urls: Record<string, string> = {}
  for (const [context, list] of contexts) {
    const json = buildIndex(toDocuments(list))
    const hash = hashOf(json)
    const file = `assets/search/${version}-${context}.${hash}.json`
    writeFileSync(join(outBase, file), json)
    urls[context] = `${baseUrl}${file}`
  }
  const manifest = { versions: { [version]: urls } }
  writeFileSync(join(outBase, 'search-manifest.json'), JSON.stringify(manifest))
  return manifest
}
