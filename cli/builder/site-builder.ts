// The site build: reads config and docs, renders Markdown (through the build cache and the
// render workers), resolves sidebars, checks links and writes the static tree while the search
// worker indexes. `SiteBuilder` keeps its state so the dev server can rebuild only the pages an
// edit touches. Its steps live beside it (./write-pages.ts, ./theme-bundle.ts); writing is
// cli/output/site-output.ts; the docs' derived data is cli/content/site-docs.ts.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { SiteAssets, SiteModel } from '../../model/site-model.ts'
import { hasVariants } from '../../model/variants.ts'
import { type LoadedDocument, loadApiDocument } from '../api-reference/load-document.ts'
import type { ApiReferencePage } from '../api-reference/reference.tsx'
import { BuildCache, renderKeyOf } from '../cache/build-cache.ts'
import { defaultCacheDir } from '../cache/cache-dir.ts'
import { pipelineKey } from '../cache/code-keys.ts'
import { type ResolvedConfig, resolveConfig } from '../config/config.ts'
import { type DocSource, listMarkdownFiles, loadDocs, readDoc } from '../content/content.ts'
import { readLastUpdated } from '../content/git.ts'
import type { RenderedDoc } from '../content/pages.ts'
import { readSettled } from '../content/settled-read.ts'
import { type DocState, SiteDocs, sidebarFields } from '../content/site-docs.ts'
import { fallbackSources, loadVariantDocs, variantFolders } from '../content/variants.ts'
import { Diagnostics } from '../errors.ts'
import type { LinkTarget } from '../markdown/links.ts'
import { markdownPluginsKey } from '../markdown/site-plugins.ts'
import { cachedClientAssets, listStaticFiles } from '../output/assets.ts'
import { routeDir } from '../output/output.ts'
import { OutputWriter } from '../output/output-writer.ts'
import { loadTemplates, SiteOutput } from '../output/site-output.ts'
import { hasOverrides, themeKey } from '../output/theme.ts'
import type { RendererInit } from '../render/doc-deps.ts'
import type { DocRenderer } from '../render/doc-renderer.ts'
import type { DocRenderResult } from '../render/render-doc.ts'
import { renderDocs } from '../render/render-docs.ts'
import { defaultPoolSize, POOL_THRESHOLD, RenderPool } from '../render/render-pool.ts'
import { Stages } from '../render/stages.ts'
import { type IndexTarget, SearchJob } from '../search/search-job.ts'
import { SearchUpdates } from '../search/search-updates.ts'
import { variantSearch } from '../search/variant-search.ts'
import type { BuildOptions, BuildResult } from './options.ts'
import { ThemeBundles } from './theme-bundle.ts'
import { writePages } from './write-pages.ts'

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
  private readonly themes = new ThemeBundles()
  private templates: string | undefined

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
    const { site: siteConfig, docsDir, theme } = this.config
    const themedTemplates = hasOverrides(theme) ? this.themes.bundle(theme) : undefined
    themedTemplates?.catch(() => {}) // awaited below; a failure before then must not go unhandled
    const variants = hasVariants(siteConfig)
    // Translations and archived versions live beside content/docs/.
    const lastUpdated = readLastUpdated(variants ? this.config.contentDir : docsDir)
    const cacheDir = this.options.cacheDir ?? defaultCacheDir(this.config.root)
    const cache = cacheDir
      ? BuildCache.open(
          cacheDir,
          pipelineKey({
            baseUrl: siteConfig.baseUrl,
            docsDir,
            plugins: markdownPluginsKey(this.config.markdownPlugins),
          }),
        )
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
      if (variants)
        sources.push(...loadVariantDocs(this.config, cache?.frontMatters, this.diagnostics))
      this.staticFiles = listStaticFiles(this.config.staticDir, siteConfig.baseUrl)
    } catch (error) {
      await early?.close()
      throw error
    }
    // Untranslated pages show their default-locale doc; links to them resolve like any doc's.
    const fallbacks = variants ? fallbackSources(this.config, sources) : []
    this.init = {
      docsDir,
      baseUrl: siteConfig.baseUrl,
      routes: [...sources, ...fallbacks].map((doc) => [doc.file, doc.route]),
      staticFiles: [...this.staticFiles],
      plugins: this.config.markdownPlugins,
    }
    this.renderer = undefined
    const client = cachedClientAssets(cache, siteConfig.baseUrl, this.options.dev ?? false, theme)
    const searchTarget: IndexTarget = {
      settings: {
        baseUrl: siteConfig.baseUrl,
        version: siteConfig.versions[0].name,
        ignore: siteConfig.search.ignorePatterns,
        reference: siteConfig.apiReference ? [siteConfig.apiReference.route] : [],
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
    // The index's files are made once the pages are written and the render workers gone (or
    // the build failed: a pending request must not outlive it).
    let pagesWritten = () => {}
    const filesAfter = new Promise<void>((resolve) => {
      pagesWritten = resolve
    })
    try {
      this.copies = new Map()
      const docs = new Map<string, DocState>()
      sources.forEach((source, i) => {
        const outcome = rendered.outcomes[i]
        for (const [from, to] of outcome.copies) this.copies.set(from, to)
        docs.set(source.file, {
          // A build renders each doc once: its Markdown (most of the docs' bytes) is not kept
          // for the pages step. The dev server keeps it to render again.
          source: this.options.dev ? source : { ...source, body: '' },
          rendered: this.report(outcome.result),
          renderKey: rendered.renderKeys[i],
        })
      })
      sources = []
      for (const source of fallbacks) {
        const shown = docs.get(source.fallbackOf!)!
        docs.set(source.file, { ...shown, source })
      }

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
      this.templates = await themedTemplates
      const output = new SiteOutput(this.options.outDir, siteConfig.baseUrl, writer, this.templates)
      const search = this.search.index(this.site.searchablePages(), {
        ...searchTarget,
        cache,
        keep: this.options.dev,
        identity: this.site.searchInput(),
        inOutput: (names) => output.searchInOutput(names),
        sectionsFile: cache && this.sectionsFile(cache),
        filesAfter,
      })
      output.writeStatic(this.config.staticDir, this.staticFiles)
      const { assets, files } = await client
      output.writeClient({ assets, files })
      this.siteAssets = { ...assets, sidebars: output.writeSidebarData(this.site.sidebars) }

      stages.start('pages')
      const site = this.model
      const siteKey = SiteOutput.siteKey(site, themeKey(theme))
      const routes = await writePages({
        site,
        siteKey,
        docs: this.site,
        apiReference: this.apiReference,
        output,
        keyed: cache !== undefined,
        pool,
        poolSize: size,
        init: this.init,
        outDir: this.options.outDir,
        templates: this.templates,
        renderedFile: cache && ((renderKey) => cache.renderedFile(renderKey)),
      })
      pool = undefined
      pagesWritten()
      output.writeImages(this.copies)
      this.copied = new Set(this.copies.values())

      stages.start('search index')
      // While the worker makes the index, if it does.
      cache?.saveDocs()
      const searchFiles = await search
      for (const files of variants ? variantSearch(this.site, searchFiles) : [searchFiles])
        output.writeSearch(files)
      const record = writer.finish()
      if (cache) {
        cache.setOutput(record, writer.written + writer.removed > 0)
        cache.save()
      }
      stages.end()
      return { ...this.result(routes, true), cached: rendered.cached, stages: stages.list }
    } finally {
      await pool?.close()
      pagesWritten()
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
      const variant = variantFolders(this.config).find((v) => v.key === before.source.variant)
      const read = readDoc(
        {
          root: this.config.root,
          docsDir: variant?.docsDir ?? this.config.docsDir,
          baseUrl: variant?.base ?? this.config.site.baseUrl,
        },
        file,
        this.diagnostics,
        await readSettled(file),
      )
      const source = read && variant ? { ...read, variant: variant.key } : read
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
      // The locales' pages that show this doc untranslated follow it.
      for (const shown of this.site.states)
        if (shown.source.fallbackOf === file) {
          const { file: at, route, variant: key } = shown.source
          const copy = {
            ...state,
            source: { ...source, file: at, route, variant: key, fallbackOf: file },
          }
          this.site.docs.set(at, copy)
          this.targets.set(route, { ids: new Set(state.rendered.ids) })
          changed.push(copy)
        }
    }
    const output = new SiteOutput(
      this.options.outDir,
      this.config.site.baseUrl,
      undefined,
      this.templates,
    )
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
    const [renderer, { renderPage }] = await Promise.all([
      this.docRenderer(),
      loadTemplates(this.templates),
    ])
    const [first] = this.site.states
    if (!first) return
    const { result } = renderer.render(first.source)
    renderPage(this.model, this.site.pageModel({ ...first, rendered: result.rendered }))
  }

  private async docRenderer(): Promise<DocRenderer> {
    if (!this.renderer) {
      const { createDocRenderer } = await import('../render/doc-renderer.ts')
      this.renderer ??= await createDocRenderer(this.init)
    }
    return this.renderer
  }

  async close(): Promise<void> {
    this.themes.close()
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
    const { buildApiReference } = await import('../api-reference/reference.tsx')
    return buildApiReference(loaded, site, this.site.sidebars, cache)
  }

  /** The cache file holding the sections of the doc at a route, for the search worker. */
  private sectionsFile(cache: BuildCache): (route: string) => string | undefined {
    const renderKeys = new Map(this.site.states.map((s) => [s.source.route, s.renderKey]))
    return (route) => {
      const renderKey = renderKeys.get(route)
      return renderKey === undefined ? undefined : cache.renderedFile(renderKey)
    }
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
