// The site build: reads config and docs, renders Markdown (through the build cache and the
// render workers), resolves sidebars, checks links and writes the static tree while the search
// worker indexes. `SiteBuilder` keeps its state so the dev server can rebuild only the pages an
// edit touches.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SiteAssets, SiteModel } from '../templates/model.ts'
import { renderPage } from '../templates/render.tsx'
import {
  copyFileTo,
  copyStaticFiles,
  listStaticFiles,
  writeAssets,
  writeSidebarData,
} from './assets.ts'
import { BuildCache, hashInput, pipelineKey } from './build-cache.ts'
import { type ResolvedConfig, resolveConfig } from './config.ts'
import { loadDocs, readDoc } from './content.ts'
import type { RendererInit } from './doc-renderer.ts'
import { createDocRenderer } from './doc-renderer.ts'
import { BuildFailedError, type Diagnostic, Diagnostics } from './errors.ts'
import { readLastUpdated } from './git.ts'
import type { LinkTarget } from './links.ts'
import { routeDir, writePage } from './output.ts'
import type { RenderedDoc } from './pages.ts'
import type { DocRenderResult } from './render-doc.ts'
import { renderDocs } from './render-docs.ts'
import { type SearchFiles, writeSearchFiles } from './search-index.ts'
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
    const sources = loadDocs(
      { root: this.config.root, docsDir, baseUrl: siteConfig.baseUrl },
      this.diagnostics,
    )
    this.staticFiles = listStaticFiles(this.config.staticDir, siteConfig.baseUrl)
    this.init = {
      docsDir,
      baseUrl: siteConfig.baseUrl,
      routes: sources.map((doc) => [doc.file, doc.route]),
      staticFiles: [...this.staticFiles],
    }
    const cacheDir = this.options.cacheDir ?? defaultCacheDir(this.config.root)
    const cache = cacheDir
      ? BuildCache.open(cacheDir, pipelineKey({ baseUrl: siteConfig.baseUrl, docsDir }))
      : undefined

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
      rmSync(this.options.outDir, { recursive: true, force: true })
      mkdirSync(this.outBase, { recursive: true })
      const searched = this.writeSearch(cache)
      copyStaticFiles(this.config.staticDir, this.outBase)
      this.siteAssets = {
        ...(await writeAssets(this.outBase, siteConfig.baseUrl, this.options.dev ?? false)),
        sidebars: {},
      }
      this.writeSidebarData()

      stages.start('pages')
      const states = this.site.states
      if (pool)
        await pool.writePages(
          this.model,
          states.map((state) => this.site.pageModel(state)),
          this.options.outDir,
        )
      else this.writeDocs(states)
      const routes = states.map((state) => state.source.route)
      routes.push(...this.writeSpecialPages())

      stages.start('search index')
      await searched
      cache?.save()
      stages.end()
      return { ...this.result(routes, true), cached: rendered.cached, stages: stages.list }
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
    return { ...this.result(routes, false), cached: 0, stages: [] }
  }

  /** Resolves once the search index has caught up with the edits so far. */
  async searchIdle(): Promise<void> {
    while (this.searchTimer || this.pendingSearch.size) {
      if (this.searchTimer) this.flushSearch()
      await this.search?.idle()
    }
    await this.search?.idle()
  }

  async close(): Promise<void> {
    clearTimeout(this.searchTimer)
    await this.search?.close()
    this.search = undefined
  }

  private result(routes: string[], full: boolean) {
    if (full) this.copied.clear()
    for (const [source, out] of this.copies) {
      if (this.copied.has(out)) continue
      copyFileTo(source, join(this.outBase, out))
      this.copied.add(out)
    }
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

  /** The sidebars as JSON for client navigation; pages name them, so this precedes page writes. */
  private writeSidebarData(): void {
    this.siteAssets.sidebars = writeSidebarData(
      this.outBase,
      this.config.site.baseUrl,
      this.site.sidebars,
    )
  }

  private get model(): SiteModel {
    return { config: this.config.site, assets: this.siteAssets, sidebars: this.site.sidebars }
  }

  private writeDocs(states: DocState[]): string[] {
    const site = this.model
    return states.map((state) => {
      const page = this.site.pageModel(state)
      writePage(this.options.outDir, page, renderPage(site, page))
      return page.route
    })
  }

  private writeSpecialPages(): string[] {
    const { landing, notFound, search } = this.site.specialPages()
    const site = this.model
    const routes: string[] = []
    for (const page of [landing, search])
      if (page) {
        writePage(this.options.outDir, page, renderPage(site, page))
        routes.push(page.route)
      }
    // The not-found page lives at `<base>404.html`, where static hosts look for it.
    writeFileSync(join(this.outBase, '404.html'), renderPage(site, notFound))
    this.writeSitemap()
    return routes
  }

  /** Builds the search index in its worker (or takes it from the cache) and writes it. */
  private async writeSearch(cache: BuildCache | undefined): Promise<void> {
    const { site } = this.config
    const settings = {
      baseUrl: site.baseUrl,
      version: site.versions[0].name,
      ignore: site.search.ignorePatterns,
    }
    const pages = this.site.searchablePages()
    const key = hashInput([settings, pages])
    const cached = cache?.search(key)
    if (cached) return writeSearchFiles(this.outBase, searchFiles(cached, settings))
    await this.search!.init(settings, this.outBase)
    const files = await this.search!.set(pages)
    cache?.storeSearch(key, files)
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

  private writeSitemap(): void {
    const { site } = this.config
    writeFileSync(
      join(this.outBase, 'sitemap.xml'),
      generateSitemap(
        site.url,
        this.site.sitemapEntries(),
        site.sitemap.ignorePatterns,
        site.sitemap.changefreq,
      ),
    )
  }

  /** Folder of a route in the output tree. */
  dirOf(route: string): string {
    return routeDir(this.options.outDir, route)
  }
}

/** The manifest that goes with cached search files. */
const searchFiles = (
  files: Map<string, string>,
  settings: { baseUrl: string; version: string },
): SearchFiles => {
  const root = [...files.keys()].find((name) => name.startsWith(`${settings.version}-root.`))!
  return {
    files,
    manifest: { versions: { [settings.version]: `${settings.baseUrl}assets/search/${root}` } },
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
