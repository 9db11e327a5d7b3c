// Writes a build's output tree: static files, the client bundle, the sidebars' JSON, the pages
// (each keyed by the templates and its model, so the output writer skips unchanged ones), the
// special pages, the sitemap, the search files and the docs' images. In a full build everything
// goes through the output writer; the dev server's edits write directly.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { PageModel, SidebarItem, SiteModel } from '../templates/model.ts'
import { renderPage } from '../templates/render.tsx'
import { type ClientAssets, hashOf, sidebarData } from './assets.ts'
import { hashInput, templatesKey } from './build-cache.ts'
import { PAGE_DATA_FILE } from './output.ts'
import type { OutputWriter } from './output-writer.ts'
import { SEARCH_DIR, type SearchFiles } from './search-index.ts'
import type { SiteDocs } from './site-docs.ts'
import { generateSitemap } from './sitemap.ts'

export class SiteOutput {
  constructor(
    private readonly outDir: string,
    private readonly baseUrl: string,
    /** Unset: write directly (the dev server after an edit). */
    private readonly writer?: OutputWriter,
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
  static siteKey(site: SiteModel): string {
    return hashInput([templatesKey(), site])
  }

  private pagePaths(page: PageModel): [string, string] {
    const dir = page.route.split('/').filter(Boolean).join('/')
    const prefix = dir ? `${dir}/` : ''
    return [`${prefix}index.html`, `${prefix}${PAGE_DATA_FILE}`]
  }

  /** The pages whose files are not already what they would be written as. */
  stalePages(siteKey: string, pages: PageModel[]): PageModel[] {
    const { writer } = this
    if (!writer) return pages
    return pages.filter((page) => {
      const key = hashInput([siteKey, page])
      return !this.pagePaths(page).every((path) => writer.unchanged(path, key))
    })
  }

  /** Records pages a render worker wrote. */
  recordPages(siteKey: string, pages: PageModel[]): void {
    for (const page of pages) {
      const key = hashInput([siteKey, page])
      for (const path of this.pagePaths(page)) this.writer?.recordWritten(path, key)
    }
  }

  writePage(site: SiteModel, siteKey: string, page: PageModel): void {
    const key = hashInput([siteKey, page])
    const [html, data] = this.pagePaths(page)
    this.put(html, key, () => renderPage(site, page))
    this.put(data, key, () => JSON.stringify(page))
  }

  /** The landing, search and not-found pages and the sitemap; returns the routes written. */
  writeSpecialPages(site: SiteModel, docs: SiteDocs, siteKey: string): string[] {
    const { landing, notFound, search } = docs.specialPages()
    const routes: string[] = []
    for (const page of [landing, search])
      if (page) {
        this.writePage(site, siteKey, page)
        routes.push(page.route)
      }
    // The not-found page lives at `<base>404.html`, where static hosts look for it.
    this.put(this.below('404.html'), hashInput([siteKey, notFound]), () =>
      renderPage(site, notFound),
    )
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
