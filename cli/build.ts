// The site build: reads config and docs, renders Markdown (through the build cache and the
// render workers), resolves sidebars, checks links and writes the static tree while the search
// worker indexes. `SiteBuilder` keeps its state so the dev server can rebuild only the pages an
// edit touches.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { PageModel, SiteAssets, SiteModel } from '../templates/model.ts'
import { renderPage } from '../templates/render.tsx'
import {
  buildAssets,
  type ClientAssets,
  copyFileTo,
  hashOf,
  listStaticFiles,
  sidebarData,
} from './assets.ts'
import { BuildCache, hashInput, pipelineKey, searchCodeKey, templatesKey } from './build-cache.ts'
import { type ResolvedConfig, resolveConfig } from './config.ts'
import { loadDocs, readDoc } from './content.ts'
import type { RendererInit } from './doc-renderer.ts'
import { createDocRenderer } from './doc-renderer.ts'
import { BuildFailedError, type Diagnostic, Diagnostics } from './errors.ts'
import { readLastUpdated } from './git.ts'
import type { LinkTarget } from './links.ts'
import { PAGE_DATA_FILE, routeDir, writePage } from './output.ts'
import { OutputWriter } from './output-writer.ts'
import type { RenderedDoc } from './pages.ts'
import type { DocRenderResult } from './render-doc.ts'
import { renderDocs } from './render-docs.ts'
import { POOL_THRESHOLD } from './render-pool.ts'
import { SEARCH_DIR, type SearchFiles } from './search-index.ts'
import { SearchJob } from './search-job.ts'
import { type DocState, SiteDocs, sidebarFields } from './site-docs.ts'
import { generateSitemap } from './sitemap.ts'
import { Stages, type StageTiming } from './stages.ts'

export interface BuildOptions {
  /** Project root holding content/. */
  root: string
  /** Output folder; the site lands in `<outDir><baseUrl>`. */
  outDir: string
  /** Dev server build: live-reload client, and errors reported instead of thrown. */
  dev?: boolean
  /** Re-import config modules (after an edit in the dev server). */
  fresh?: boolean
  /** Render workers for big sites; 1 renders in this thread. @default the number of cores */
  workers?: number
  /**
   * Folder of the persistent build cache; `false` builds without it.
   * @default `<root>/.cache/docs`
   */
  cacheDir?: string | false
}

export interface BuildResult {
  /** Routes written by this run. */
  routes: string[]
  errors: Diagnostic[]
  warnings: Diagnostic[]
  /** True when the whole site was rebuilt. */
  full: boolean
  /** Docs whose Markdown came from the build cache. */
  cached: number
  /** When each step ran (for profiles). */
  stages: StageTiming[]
}

const copyTo = (file: string, content: string) => {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, content)
}

/** Where a build keeps its cache unless told otherwise. */
export const defaultCacheDir = (root: string) => join(root, '.cache', 'docs')

export class SiteBuilder {
  private config!: ResolvedConfig
  private siteAssets!: SiteAssets
  private outBase = ''
  private site!: SiteDocs
  private init!: RendererInit
  private targets = new Map<string, LinkTarget>()
  /** Image copies: source file to output path below the base URL. */
  private copies = new Map<string, string>()
  private copied = new Set<string>()
  private staticFiles = new Set<string>()
  private diagnostics = new Diagnostics()
  private search: SearchJob | undefined
  private searchTimer: NodeJS.Timeout | undefined
  private pendingSearch = new Set<string>()

  constructor(private readonly options: BuildOptions) {}

  /** Builds the whole site. Without `dev`, any error throws before a page is written. */
  async buildAll(): Promise<BuildResult> {
    const stages = new Stages()
    this.diagnostics = new Diagnostics()
    clearTimeout(this.searchTimer)
    // The search worker loads its code while Markdown renders.
    this.search ??= new SearchJob()
    stages.start('config and sources')
    this.config = await resolveConfig({ root: this.options.root, fresh: this.options.fresh })
    const { site: siteConfig, docsDir } = this.config
    this.outBase = join(this.options.outDir, ...siteConfig.baseUrl.split('/').filter(Boolean))
    const lastUpdated = readLastUpdated(docsDir)
    const cacheDir = this.options.cacheDir ?? defaultCacheDir(this.config.root)
    const cache = cacheDir
      ? BuildCache.open(cacheDir, pipelineKey({ baseUrl: siteConfig.baseUrl, docsDir }))
      : undefined
    const sources = loadDocs(
      {
        root: this.config.root,
        docsDir,
        baseUrl: siteConfig.baseUrl,
        frontMatters: cache?.frontMatters,
      },
      this.diagnostics,
    )
    this.staticFiles = listStaticFiles(this.config.staticDir, siteConfig.baseUrl)
    this.init = {
      docsDir,
      baseUrl: siteConfig.baseUrl,
      routes: sources.map((doc) => [doc.file, doc.route]),
      staticFiles: [...this.staticFiles],
    }
    const assets = this.clientAssets(cache)

    stages.start('markdown')
    const rendered = await renderDocs(sources, this.init, {
      cache,
      workers: this.options.workers,
    })
    const { pool } = rendered
    try {
      this.copies = new Map()
      const docs = new Map<string, DocState>()
      sources.forEach((source, i) => {
        const outcome = rendered.outcomes[i]
        for (const [from, to] of outcome.copies) this.copies.set(from, to)
        docs.set(source.file, { source, rendered: this.report(outcome.result) })
      })

      stages.start('sidebars and links')
      this.site = new SiteDocs(this.config, docs, await lastUpdated)
      this.site.resolveSidebars(this.diagnostics)
      this.targets = this.site.linkTargets()
      this.checkLinks()
      if (!this.options.dev) this.diagnostics.throwIfErrors()

      stages.start('assets')
      // The dev server's output changes behind the writer's back: it always starts afresh.
      const writer = new OutputWriter(
        this.options.outDir,
        this.options.dev ? undefined : cache?.output,
      )
      const searched = this.writeSearch(cache, writer)
      this.writeStatic(writer)
      const client = await assets
      for (const [path, content] of client.files)
        writer.write(this.below(path), hashOf(content), () => content)
      this.siteAssets = { ...client.assets, sidebars: {} }
      this.writeSidebarData(writer)

      stages.start('pages')
      const siteKey = hashInput([templatesKey(), this.model])
      const pages = this.site.states.map((state) => this.site.pageModel(state))
      const stale = pages.filter((page) => !this.pageUnchanged(writer, siteKey, page))
      if (pool && stale.length >= POOL_THRESHOLD) {
        await pool.writePages(this.model, stale, this.options.outDir)
        for (const page of stale) this.recordPage(writer, siteKey, page)
      } else for (const page of stale) this.writePage(writer, siteKey, page)
      const routes = pages.map((page) => page.route)
      routes.push(...this.writeSpecialPages(writer, siteKey))

      stages.start('search index')
      await searched
      const result = this.result(routes, writer)
      const record = writer.finish()
      if (cache) {
        cache.setOutput(record, writer.written + writer.removed > 0)
        cache.save()
      }
      stages.end()
      return { ...result, cached: rendered.cached, stages: stages.list }
    } finally {
      await pool?.close()
    }
  }

  /** Rebuilds after Markdown files changed; falls back to a full build when routes move. */
  async updateDocs(files: string[]): Promise<BuildResult> {
    this.diagnostics = new Diagnostics()
    const changed: DocState[] = []
    let sidebarsChanged = false
    let idsChanged = false
    const renderer = createDocRenderer(this.init)
    for (const file of files) {
      const before = this.site.docs.get(file)
      if (!before || !existsSync(file)) return this.buildAll()
      const source = readDoc(
        { root: this.config.root, docsDir: this.config.docsDir, baseUrl: this.config.site.baseUrl },
        file,
        this.diagnostics,
      )
      if (!source || source.route !== before.source.route || source.id !== before.source.id)
        return this.buildAll()
      const outcome = renderer.render(source)
      for (const [from, to] of outcome.copies) this.copies.set(from, to)
      const state = { source, rendered: this.report(outcome.result) }
      sidebarsChanged ||= sidebarFields(state) !== sidebarFields(before)
      idsChanged ||= state.rendered.ids.join('\n') !== before.rendered.ids.join('\n')
      this.site.docs.set(file, state)
      this.targets.set(source.route, { ids: new Set(state.rendered.ids) })
      changed.push(state)
    }
    if (sidebarsChanged) {
      this.site.resolveSidebars(this.diagnostics)
      this.writeSidebarData()
    }
    // Other pages' anchors into the edited ones can only break when their ids change.
    this.checkLinks(idsChanged ? undefined : changed)
    const routes = this.writeDocs(sidebarsChanged ? this.site.states : changed)
    if (sidebarsChanged) this.writeSitemap()
    for (const state of sidebarsChanged ? this.site.states : changed)
      this.pendingSearch.add(state.source.file)
    this.scheduleSearch()
    return { ...this.result(routes), cached: 0, stages: [] }
  }

  async close(): Promise<void> {
    clearTimeout(this.searchTimer)
    await this.search?.close()
    this.search = undefined
  }

  /** Copies the images the docs use (all of them through `writer` in a full build). */
  private result(routes: string[], writer?: OutputWriter) {
    if (writer) this.copied.clear()
    for (const [source, out] of this.copies) {
      if (this.copied.has(out)) continue
      if (writer) writer.write(this.below(out), out, () => readFileSync(source))
      else copyFileTo(source, join(this.outBase, out))
      this.copied.add(out)
    }
    const full = writer !== undefined
    return { routes, errors: this.diagnostics.errors, warnings: this.diagnostics.warnings, full }
  }

  /** Records a doc's diagnostics and returns its rendering. */
  private report(result: DocRenderResult): RenderedDoc {
    for (const error of result.errors) this.diagnostics.error(error)
    for (const warning of result.warnings) this.diagnostics.warn(warning)
    return result.rendered
  }

  private checkLinks(pages?: DocState[]): void {
    const { baseUrl } = this.config.site
    const copied = new Set([...this.copies.values()].map((out) => `${baseUrl}${out}`))
    this.site.checkLinks(
      this.targets,
      (path) => this.staticFiles.has(path) || copied.has(path),
      this.diagnostics,
      pages,
    )
  }

  /** A path below the output folder for `path` below the base URL. */
  private below(path: string): string {
    return `${this.config.site.baseUrl.slice(1)}${path}`
  }

  /** The sidebars as JSON for client navigation; pages name them, so this precedes page writes. */
  private writeSidebarData(writer?: OutputWriter): void {
    const { files, urls } = sidebarData(this.config.site.baseUrl, this.site.sidebars)
    for (const [path, json] of files)
      if (writer) writer.write(this.below(path), path, () => json)
      else copyTo(join(this.outBase, path), json)
    this.siteAssets.sidebars = urls
  }

  /** The client bundle, from the cache when the templates are unchanged. */
  private async clientAssets(cache: BuildCache | undefined): Promise<ClientAssets> {
    const dev = this.options.dev ?? false
    const key = hashInput([templatesKey(), dev, this.config.site.baseUrl])
    const cached = cache?.entry<{
      assets: ClientAssets['assets']
      files: [string, string | Uint8Array][]
    }>('client', key)
    if (cached) return { assets: cached.assets, files: new Map(cached.files) }
    const built = await buildAssets(this.config.site.baseUrl, dev)
    cache?.storeEntry('client', key, { assets: built.assets, files: [...built.files] })
    return built
  }

  /** Files of content/static/, copied as they are. */
  private writeStatic(writer: OutputWriter): void {
    const { staticDir } = this.config
    const { baseUrl } = this.config.site
    for (const path of this.staticFiles) {
      const source = join(staticDir, path.slice(baseUrl.length))
      const stat = statSync(source)
      writer.write(this.below(path.slice(baseUrl.length)), `${stat.size}:${stat.mtimeMs}`, () =>
        readFileSync(source),
      )
    }
  }

  private get model(): SiteModel {
    return { config: this.config.site, assets: this.siteAssets, sidebars: this.site.sidebars }
  }

  private pagePaths(page: PageModel): [string, string] {
    const dir = page.route.split('/').filter(Boolean).join('/')
    const prefix = dir ? `${dir}/` : ''
    return [`${prefix}index.html`, `${prefix}${PAGE_DATA_FILE}`]
  }

  private pageUnchanged(writer: OutputWriter, siteKey: string, page: PageModel): boolean {
    const key = hashInput([siteKey, page])
    return this.pagePaths(page).every((path) => writer.unchanged(path, key))
  }

  private recordPage(writer: OutputWriter, siteKey: string, page: PageModel): void {
    const key = hashInput([siteKey, page])
    for (const path of this.pagePaths(page)) writer.recordWritten(path, key)
  }

  private writePage(writer: OutputWriter, siteKey: string, page: PageModel): void {
    const key = hashInput([siteKey, page])
    const [html, data] = this.pagePaths(page)
    writer.write(html, key, () => renderPage(this.model, page))
    writer.write(data, key, () => JSON.stringify(page))
  }

  /** Dev server edits: the pages of `states`, written as they are. */
  private writeDocs(states: DocState[]): string[] {
    const site = this.model
    return states.map((state) => {
      const page = this.site.pageModel(state)
      writePage(this.options.outDir, page, renderPage(site, page))
      return page.route
    })
  }

  private writeSpecialPages(writer: OutputWriter, siteKey: string): string[] {
    const { landing, notFound, search } = this.site.specialPages()
    const routes: string[] = []
    for (const page of [landing, search])
      if (page) {
        this.writePage(writer, siteKey, page)
        routes.push(page.route)
      }
    // The not-found page lives at `<base>404.html`, where static hosts look for it.
    writer.write(this.below('404.html'), hashInput([siteKey, notFound]), () =>
      renderPage(this.model, notFound),
    )
    const sitemap = this.sitemap()
    writer.write(this.below('sitemap.xml'), hashOf(sitemap), () => sitemap)
    return routes
  }

  /** Builds the search index in its worker (or takes it from the cache) and writes it. */
  private async writeSearch(cache: BuildCache | undefined, writer: OutputWriter): Promise<void> {
    const { site } = this.config
    const settings = {
      baseUrl: site.baseUrl,
      version: site.versions[0].name,
      ignore: site.search.ignorePatterns,
    }
    const pages = this.site.searchablePages()
    const key = hashInput([settings, pages])
    let search = cache?.entry<SearchFiles>('search', key)
    if (!search) {
      // In the dev server the worker keeps the index and writes its updates itself.
      const cacheDir = this.options.cacheDir ?? defaultCacheDir(this.config.root)
      const snapshot = cacheDir
        ? { path: join(cacheDir, 'search-index.bin'), key: hashInput([settings, searchCodeKey()]) }
        : undefined
      await this.search!.init(settings, this.outBase, snapshot)
      search = await this.search!.set(pages)
      cache?.storeEntry('search', key, search)
    }
    for (const [name, content] of search.files)
      writer.write(this.below(`${SEARCH_DIR}/${name}`), name, () => content)
    const manifest = JSON.stringify(search.manifest)
    writer.write(this.below('search-manifest.json'), manifest, () => manifest)
  }

  /**
   * After an edit, the dev server updates the search index in its worker once edits pause, off
   * the edit-to-reload path; only the edited pages' entries are replaced.
   */
  private scheduleSearch(): void {
    clearTimeout(this.searchTimer)
    this.searchTimer = setTimeout(() => this.flushSearch(), 200)
  }

  private flushSearch(): void {
    clearTimeout(this.searchTimer)
    this.searchTimer = undefined
    const states = [...this.pendingSearch].flatMap((file) => this.site.docs.get(file) ?? [])
    this.pendingSearch.clear()
    if (!states.length) return
    const pages = this.site.searchablePages(states)
    const listed = new Set(pages.map((page) => page.route))
    const removed = states.map((s) => s.source.route).filter((route) => !listed.has(route))
    void this.search?.update(pages, removed).catch((error) => {
      console.error(`search index update failed: ${error.message}`)
    })
  }

  private sitemap(): string {
    const { site } = this.config
    return generateSitemap(
      site.url,
      this.site.sitemapEntries(),
      site.sitemap.ignorePatterns,
      site.sitemap.changefreq,
    )
  }

  private writeSitemap(): void {
    writeFileSync(join(this.outBase, 'sitemap.xml'), this.sitemap())
  }

  /** Folder of a route in the output tree. */
  dirOf(route: string): string {
    return routeDir(this.options.outDir, route)
  }
}

/** `docs build`: a full build that fails on any error. */
export const build = async (options: BuildOptions): Promise<BuildResult> => {
  const builder = new SiteBuilder(options)
  try {
    const result = await builder.buildAll()
    if (result.errors.length) throw new BuildFailedError(result.errors)
    return result
  } finally {
    await builder.close()
  }
}
