// Writes a build's output tree: static files, the client bundle, the sidebars' JSON, the pages
// (each keyed by the templates and its model, so the output writer skips unchanged ones), the
// special pages, the sitemap, the search files and the docs' images. In a full build everything
// goes through the output writer; the dev server's edits write directly. The templates (React)
// load only when a page is written.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { PageModel, SidebarItem, SiteModel } from '../../model/site-model.ts'
import { templatesKey } from '../cache/code-keys.ts'
import { hashInput, hashOf } from '../cache/hash.ts'
import type { SiteDocs } from '../content/site-docs.ts'
import { SEARCH_DIR, type SearchFiles } from '../search/search-index.ts'
import { type ClientAssets, sidebarData } from './assets.ts'
import { PAGE_DATA_FILE } from './output.ts'
import type { OutputWriter } from './output-writer.ts'
import { generateSitemap } from './sitemap.ts'

/** A page and the key of its two files (see `SiteOutput.pageKey`). */
export interface KeyedPage {
  page: PageModel
  key: string
}

type Templates = typeof import('../../templates/render.tsx')
let ownTemplates: Promise<Templates> | undefined

/**
 * The page templates: those bundled with a site's overrides at `url` (cli/output/theme.ts), or
 * Keyward's own, loaded on the first page written. Each build names its own, so builds that
 * run side by side in one process (tests, a dev server beside a build) never swap them.
 */
export const loadTemplates = (url?: string): Promise<Templates> => {
  if (url) return import(url) // a themed bundle has a file of its own, cached by its URL
  ownTemplates ??= import('../../templates/render.tsx')
  return ownTemplates
}

export class SiteOutput {
  constructor(
    private readonly outDir: string,
    private readonly baseUrl: string,
    /** Unset: write directly (the dev server after an edit). */
    private readonly writer?: OutputWriter,
    /** The templates bundled with the site's overrides, if it has some. */
    private readonly templates?: string,
  ) {}

  /** A path below the output folder for `path` below the base URL. */
  private below(path: string): string {
    return `${this.baseUrl.slice(1)}${path}`
  }

  /** Writes `path` (below the output folder) unless the writer knows it holds `key` already. */
  private put(path: string, key: string, content: () => string | Uint8Array): void {
    if (this.writer) {
      this.writer.write(path, key, content)
      return
    }
    const file = join(this.outDir, path)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, content())
  }

  /** Files of content/static/ (URL paths below the base URL), copied as they are. */
  writeStatic(staticDir: string, staticFiles: Set<string>): void {
    for (const path of staticFiles) {
      const relative = path.slice(this.baseUrl.length)
      const source = join(staticDir, relative)
      const stat = statSync(source)
      this.put(this.below(relative), `${stat.size}:${stat.mtimeMs}`, () => readFileSync(source))
    }
  }

  writeClient(client: ClientAssets): void {
    for (const [path, content] of client.files)
      this.put(this.below(path), hashOf(content), () => content)
  }

  /** The sidebars as JSON for client navigation; returns their addresses. */
  writeSidebarData(sidebars: Record<string, SidebarItem[]>): Record<string, string> {
    const { files, urls } = sidebarData(this.baseUrl, sidebars)
    for (const [path, json] of files) this.put(this.below(path), path, () => json)
    return urls
  }

  /** What a page's two files are made from: the templates, the site model and the page. */
  static siteKey(site: SiteModel, theme = ''): string {
    return hashInput([templatesKey(), theme, site])
  }

  /**
   * The key of a page's files. A doc page is keyed by its outline (the model without HTML) and
   * its rendering's key, so a warm build neither reads nor hashes every page's HTML.
   */
  static pageKey(siteKey: string, page: PageModel, renderKey?: string): string {
    return hashInput([siteKey, page, renderKey])
  }

  private pagePaths(page: PageModel): [string, string] {
    const dir = page.route.split('/').filter(Boolean).join('/')
    const prefix = dir ? `${dir}/` : ''
    return [`${prefix}index.html`, `${prefix}${PAGE_DATA_FILE}`]
  }

  private unchanged(paths: string[], key: string): boolean {
    const { writer } = this
    return !!writer && paths.every((path) => writer.unchanged(path, key))
  }

  /** The pages whose files are not already what they would be written as. */
  stalePages<T extends KeyedPage>(pages: T[]): T[] {
    return pages.filter(({ page, key }) => !this.unchanged(this.pagePaths(page), key))
  }

  /** Records pages a render worker wrote. */
  recordPages(pages: KeyedPage[]): void {
    for (const { page, key } of pages)
      for (const path of this.pagePaths(page)) this.writer?.recordWritten(path, key)
  }

  async writePage(site: SiteModel, { page, key }: KeyedPage): Promise<void> {
    const paths = this.pagePaths(page)
    if (this.unchanged(paths, key)) return
    const { renderPage } = await loadTemplates(this.templates)
    this.put(paths[0], key, () => renderPage(site, page))
    this.put(paths[1], key, () => JSON.stringify(page))
  }

  /** The landing, search and not-found pages and the sitemap; returns the routes written. */
  async writeSpecialPages(site: SiteModel, docs: SiteDocs, siteKey: string): Promise<string[]> {
    const { landing, notFound, search } = docs.specialPages()
    const routes: string[] = []
    // Each locale's and archived version's landing and search pages too.
    for (const page of [landing, search, ...docs.variantPages()])
      if (page) {
        await this.writePage(site, { page, key: SiteOutput.pageKey(siteKey, page) })
        routes.push(page.route)
      }
    // The not-found page lives at `<base>404.html`, where static hosts look for it; each other
    // locale's at `<base><code>/404.html`.
    for (const page of [notFound, ...docs.localeNotFoundPages()]) {
      const path = `${page.route.slice(1, -'404/'.length)}404.html`
      const key = SiteOutput.pageKey(siteKey, page)
      if (this.unchanged([path], key)) continue
      const { renderPage } = await loadTemplates(this.templates)
      this.put(path, key, () => renderPage(site, page))
    }
    this.writeSitemap(docs)
    return routes
  }

  writeSitemap(docs: SiteDocs): void {
    const { site } = docs.config
    const sitemap = generateSitemap(
      site.url,
      docs.sitemapEntries(),
      site.sitemap.ignorePatterns,
      site.sitemap.changefreq,
    )
    this.put(this.below('sitemap.xml'), hashOf(sitemap), () => sitemap)
  }

  /** Whether the output holds these search files from the last build (recorded as kept). */
  searchInOutput(names: string[]): boolean {
    // A search file's name holds its content's hash: the name is its key.
    return names.every((name) => this.unchanged([this.below(`${SEARCH_DIR}/${name}`)], name))
  }

  writeSearch({ files, manifest, written }: SearchFiles): void {
    for (const [name, content] of files) {
      const path = this.below(`${SEARCH_DIR}/${name}`)
      if (written) this.writer?.recordWritten(path, name)
      else this.put(path, name, () => content)
    }
    const json = JSON.stringify(manifest)
    this.put(this.below('search-manifest.json'), json, () => json)
  }

  /** Files made by the build (the API reference's JSON): paths below the base URL and contents. */
  writeFiles(files: [string, string][]): void {
    for (const [path, content] of files) this.put(this.below(path), hashOf(content), () => content)
  }

  /** Copies the images the docs use (source file to path below the base URL). */
  writeImages(copies: Map<string, string>): void {
    for (const [source, out] of copies) this.put(this.below(out), out, () => readFileSync(source))
  }
}
