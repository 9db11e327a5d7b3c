// The site build: reads config and docs, renders Markdown (through the build cache and the
// render workers), resolves sidebars, checks links and writes the static tree while the search
// worker indexes. `SiteBuilder` keeps its state so the dev server can rebuild only the pages an
// edit touches. Writing is cli/site-output.ts; the docs' derived data is cli/site-docs.ts.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { SiteAssets, SiteModel } from '../templates/model.ts'
import { type LoadedDocument, loadApiDocument } from './api-reference/load-document.ts'
import type { ApiReferencePage } from './api-reference/reference.tsx'
import { cachedClientAssets, listStaticFiles } from './assets.ts'
import { BuildCache, pipelineKey, renderKeyOf } from './build-cache.ts'
import { type ResolvedConfig, resolveConfig } from './config.ts'
import { type DocSource, listMarkdownFiles, loadDocs, readDoc } from './content.ts'
import type { RendererInit } from './doc-deps.ts'
import type { DocRenderer } from './doc-renderer.ts'
import { BuildFailedError, type Diagnostic, Diagnostics } from './errors.ts'
import { readLastUpdated } from './git.ts'
import type { LinkTarget } from './links.ts'
import { routeDir } from './output.ts'
import { OutputWriter } from './output-writer.ts'
import type { RenderedDoc } from './pages.ts'
import type { DocRenderResult } from './render-doc.ts'
import { renderDocs } from './render-docs.ts'
import { defaultPoolSize, POOL_THRESHOLD, RenderPool } from './render-pool.ts'
import { type IndexTarget, SearchJob } from './search-job.ts'
import { SearchUpdates } from './search-updates.ts'
import { type DocState, SiteDocs, sidebarFields } from './site-docs.ts'
import { type KeyedPage, loadTemplates, SiteOutput } from './site-output.ts'
import { Stages, type StageTiming } from './stages.ts'

export interface BuildOptions {
  /** Project root holding content/. */
  root: string
  /** Output folder; the site lands in `<outDir><baseUrl>`. */
  outDir: string
  /** Dev server build: live-reload client, and errors reported instead of thrown. */
  dev?: boolean
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
  /** An update changed what every page of a guide shows (its sidebar), not only its pages. */
  layout?: boolean
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
  private site!: SiteDocs
  private init!: RendererInit
  private renderer: DocRenderer | undefined
  private targets = new Map<string, LinkTarget>()
  /** Image copies: source file to output path below the base URL. */
  private copies = new Map<string, string>()
  /** Images already in the output (dev server). */
  private copied = new Set<string>()
  private staticFiles = new Set<string>()
  private diagnostics = new Diagnostics()
  private search: SearchJob | undefined
  private searchUpdates: SearchUpdates | undefined
  private apiReference: ApiReferencePage | undefined

  constructor(private readonly options: BuildOptions) {}

  /** Builds the whole site. Without `dev`, any error throws before a page is written. */
  async buildAll(): Promise<BuildResult> {
    const stages = new Stages()
    this.diagnostics = new Diagnostics()
    this.searchUpdates?.cancel()
    // Its worker starts once the index is known to be needed (below).
    this.search ??= new SearchJob()
    stages.start('config and sources')
    this.config = await resolveConfig({ root: this.options.root })
    const { site: siteConfig, docsDir } = this.config
    const lastUpdated = readLastUpdated(docsDir)
    const cacheDir = this.options.cacheDir ?? defaultCacheDir(this.config.root)
    const cache = cacheDir
      ? BuildCache.open(cacheDir, pipelineKey({ baseUrl: siteConfig.baseUrl, docsDir }))
      : undefined
    // The server's code loads in a worker while Markdown renders (unless the cache has it).
    const apiDocument = siteConfig.apiReference
      ? loadApiDocument(this.config.root, siteConfig.apiReference, cache)
      : undefined
    apiDocument?.catch(() => {}) // awaited below; a failure before then must not go unhandled
    // A cold build starts its render workers now: their modules load while the docs are read.
    const size = this.options.workers ?? defaultPoolSize()
    const early =
      !this.options.dev &&
      !cache?.hasEntry('search') &&
      size >= 2 &&
      listMarkdownFiles(docsDir).length >= POOL_THRESHOLD
        ? RenderPool.spawn(size)
        : undefined
    let sources: DocSource[]
    try {
      sources = loadDocs(
        {
          root: this.config.root,
          docsDir,
          baseUrl: siteConfig.baseUrl,
          frontMatters: cache?.frontMatters,
        },
        this.diagnostics,
      )
      this.staticFiles = listStaticFiles(this.config.staticDir, siteConfig.baseUrl)
    } catch (error) {
      await early?.close()
      throw error
    }
    this.init = {
      docsDir,
      baseUrl: siteConfig.baseUrl,
      routes: sources.map((doc) => [doc.file, doc.route]),
      staticFiles: [...this.staticFiles],
    }
    this.renderer = undefined
    const client = cachedClientAssets(cache, siteConfig.baseUrl, this.options.dev ?? false)
    const searchTarget: IndexTarget = {
      settings: {
        baseUrl: siteConfig.baseUrl,
        version: siteConfig.versions[0].name,
        ignore: siteConfig.search.ignorePatterns,
      },
      outBase: join(this.options.outDir, ...siteConfig.baseUrl.split('/').filter(Boolean)),
      cacheDir,
    }
    // The worker loads the last build's index while Markdown renders, when the index will have
    // to be made: in a cold build or the dev server (it keeps the index), or after any doc
    // missed the cache (as soon as the lookups tell).
    if (!cache?.hasEntry('search') || this.options.dev) this.search.prepare(searchTarget)

    stages.start('markdown')
    const rendered = await renderDocs(sources, this.init, {
      cache,
      workers: this.options.workers,
      onMisses: () => this.search?.prepare(searchTarget),
      pool: early,
    })
    let { pool } = rendered
    try {
      this.copies = new Map()
      const docs = new Map<string, DocState>()
      sources.forEach((source, i) => {
        const outcome = rendered.outcomes[i]
        for (const [from, to] of outcome.copies) this.copies.set(from, to)
        docs.set(source.file, {
          source,
          rendered: this.report(outcome.result),
          renderKey: rendered.renderKeys[i],
        })
      })

      stages.start('sidebars and links')
      this.site = new SiteDocs(this.config, docs, await lastUpdated)
      this.site.resolveSidebars(this.diagnostics)
      this.apiReference = apiDocument && (await this.referencePage(await apiDocument, cache))
      this.site.generated = this.apiReference
        ? [{ route: this.apiReference.page.route, ...this.apiReference }]
        : []
      this.targets = this.site.linkTargets()
      this.checkLinks()
      if (!this.options.dev) this.diagnostics.throwIfErrors()

      stages.start('assets')
      // The dev server's output changes behind the writer's back: it always starts afresh.
      const writer = new OutputWriter(
        this.options.outDir,
        this.options.dev ? undefined : cache?.output,
      )
      const output = new SiteOutput(this.options.outDir, siteConfig.baseUrl, writer)
      const search = this.search.index(this.site.searchablePages(), {
        ...searchTarget,
        cache,
        keep: this.options.dev,
        identity: this.site.searchInput(),
        inOutput: (names) => output.searchInOutput(names),
      })
      output.writeStatic(this.config.staticDir, this.staticFiles)
      const { assets, files } = await client
      output.writeClient({ assets, files })
      this.siteAssets = { ...assets, sidebars: output.writeSidebarData(this.site.sidebars) }

      stages.start('pages')
      const site = this.model
      const siteKey = SiteOutput.siteKey(site)
      // Keys matter only to the next build, through the cache.
      const pages: (KeyedPage & { state?: DocState })[] = this.site.states.map((state) => {
        const page = this.site.pageOutline(state)
        return { page, state, key: cache ? SiteOutput.pageKey(siteKey, page, state.renderKey) : '' }
      })
      if (this.apiReference) {
        const { page } = this.apiReference
        pages.push({ page, key: SiteOutput.pageKey(siteKey, page) })
        output.writeFiles(this.apiReference.files)
      }
      const stale = output
        .stalePages(pages)
        .map(({ page, state, key }) => ({ page: state ? this.site.pageModel(state) : page, key }))
      // Many pages to write with the Markdown from the cache (a template edit, the dev server's
      // first build): the render workers write them too.
      if (!pool && size >= 2 && stale.length >= POOL_THRESHOLD)
        pool = await RenderPool.start(size, this.init)
      if (pool && stale.length >= POOL_THRESHOLD) {
        await pool.writePages(
          site,
          stale.map(({ page }) => page),
          this.options.outDir,
        )
        output.recordPages(stale)
      } else for (const page of stale) await output.writePage(site, page)
      // The render workers' heaps are not needed for what is left; freeing them lowers the peak.
      await pool?.close()
      const routes = pages.map(({ page }) => page.route)
      routes.push(...(await output.writeSpecialPages(site, this.site, siteKey)))
      output.writeImages(this.copies)
      this.copied = new Set(this.copies.values())

      stages.start('search index')
      // While the worker makes the index, if it does.
      cache?.saveDocs()
      output.writeSearch(await search)
      const record = writer.finish()
      if (cache) {
        cache.setOutput(record, writer.written + writer.removed > 0)
        cache.save()
      }
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
    const renderer = await this.docRenderer()
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
      const state = {
        source,
        rendered: this.report(outcome.result),
        renderKey: renderKeyOf(outcome),
      }
      sidebarsChanged ||= sidebarFields(state) !== sidebarFields(before)
      idsChanged ||= state.rendered.ids.join('\n') !== before.rendered.ids.join('\n')
      this.site.docs.set(file, state)
      this.targets.set(source.route, { ids: new Set(state.rendered.ids) })
      changed.push(state)
    }
    const output = new SiteOutput(this.options.outDir, this.config.site.baseUrl)
    if (sidebarsChanged) {
      this.site.resolveSidebars(this.diagnostics)
      this.siteAssets.sidebars = output.writeSidebarData(this.site.sidebars)
    }
    // Other pages' anchors into the edited ones can only break when their ids change.
    this.checkLinks(idsChanged ? undefined : changed)
    const states = sidebarsChanged ? this.site.states : changed
    const site = this.model
    const routes: string[] = []
    for (const state of states) {
      const page = this.site.pageModel(state)
      await output.writePage(site, { page, key: '' })
      routes.push(page.route)
    }
    if (sidebarsChanged) output.writeSitemap(this.site)
    output.writeImages(new Map([...this.copies].filter(([, out]) => !this.copied.has(out))))
    for (const out of this.copies.values()) this.copied.add(out)
    this.searchUpdates ??= new SearchUpdates(this.search!)
    this.searchUpdates.schedule(this.site, states)
    return { ...this.result(routes, false), layout: sidebarsChanged, cached: 0, stages: [] }
  }

  /**
   * Loads what an edit needs (the Markdown pipeline, the templates) and runs it once on the
   * first doc, writing nothing, so that the dev server's first edit after a build waits neither
   * for loading nor for compiling that code.
   */
  async warmUp(): Promise<void> {
    const [renderer, { renderPage }] = await Promise.all([this.docRenderer(), loadTemplates()])
    const [first] = this.site.states
    if (!first) return
    const { result } = renderer.render(first.source)
    renderPage(this.model, this.site.pageModel({ ...first, rendered: result.rendered }))
  }

  private async docRenderer(): Promise<DocRenderer> {
    if (!this.renderer) {
      const { createDocRenderer } = await import('./doc-renderer.ts')
      this.renderer ??= createDocRenderer(this.init)
    }
    return this.renderer
  }

  async close(): Promise<void> {
    this.searchUpdates?.cancel()
    await this.search?.close()
    this.search = undefined
  }

  /** The API reference page; a doc that takes its route is an error. */
  private async referencePage(
    loaded: LoadedDocument,
    cache: BuildCache | undefined,
  ): Promise<ApiReferencePage> {
    const { site } = this.config
    const route = site.apiReference!.route
    for (const { source } of this.site.states)
      if (source.route === route)
        this.diagnostics.error({
          file: source.displayPath,
          message: `${route} is the API reference's route (apiReference in site.config.ts); move this doc`,
        })
    // Its templates (React) load only for a site that has it.
    const { buildApiReference } = await import('./api-reference/reference.tsx')
    return buildApiReference(loaded, site, this.site.sidebars, cache)
  }

  private result(routes: string[], full: boolean) {
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

  private get model(): SiteModel {
    return { config: this.config.site, assets: this.siteAssets, sidebars: this.site.sidebars }
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
