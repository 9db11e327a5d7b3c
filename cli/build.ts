// The site build: reads config and docs, renders Markdown, resolves sidebars, checks links and
// writes the static tree. `SiteBuilder` keeps its state so the dev server can rebuild only the
// pages an edit touches.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { PageModel, SidebarItem, SiteAssets, SiteModel } from '../templates/model.ts'
import { renderPage } from '../templates/render.tsx'
import {
  copyFileTo,
  copyStaticFiles,
  listStaticFiles,
  writeAssets,
  writeSidebarData,
} from './assets.ts'
import { type ResolvedConfig, resolveConfig } from './config.ts'
import { type DocSource, loadDocs, readDoc } from './content.ts'
import { BuildFailedError, type Diagnostic, Diagnostics } from './errors.ts'
import { readLastUpdated } from './git.ts'
import { AssetCollector, checkLinks, type LinkTarget, resolveLink } from './links.ts'
import { createProcessor, type MarkdownProcessor } from './markdown.ts'
import { routeDir, writePage } from './output.ts'
import { docPageModel, type RenderedDoc, specialPageModel } from './pages.ts'
import { type DocRenderResult, renderDoc } from './render-doc.ts'
import { defaultPoolSize, POOL_THRESHOLD, RenderPool } from './render-pool.ts'
import { contextOf, writeSearchIndexes } from './search-index.ts'
import { type DocPlacement, placeDocs, resolveSidebars } from './sidebars.ts'
import { generateSitemap } from './sitemap.ts'

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
}

export interface BuildResult {
  /** Routes written by this run. */
  routes: string[]
  errors: Diagnostic[]
  warnings: Diagnostic[]
  /** True when the whole site was rebuilt. */
  full: boolean
}

interface DocState {
  source: DocSource
  rendered: RenderedDoc
}

const SIDEBAR_FIELDS = (doc: DocState) =>
  JSON.stringify([
    doc.rendered.title,
    doc.source.frontMatter.sidebar_label,
    doc.source.frontMatter.sidebar_position,
    doc.source.frontMatter.unlisted,
  ])

export class SiteBuilder {
  private config!: ResolvedConfig
  private siteAssets!: SiteAssets
  private sidebars: Record<string, SidebarItem[]> = {}
  private outBase = ''
  private docs = new Map<string, DocState>()
  private placements = new Map<string, DocPlacement>()
  private targets = new Map<string, LinkTarget>()
  /** Images already copied to the output. */
  private copied = new Set<string>()
  private lastUpdated = new Map<string, number>()
  private staticFiles = new Set<string>()
  private processor!: MarkdownProcessor
  private assets!: AssetCollector
  private diagnostics = new Diagnostics()

  constructor(private readonly options: BuildOptions) {}

  /** Builds the whole site. Without `dev`, any error throws before a page is written. */
  async buildAll(): Promise<BuildResult> {
    this.diagnostics = new Diagnostics()
    this.config = await resolveConfig({ root: this.options.root, fresh: this.options.fresh })
    const { site: siteConfig } = this.config
    this.outBase = join(this.options.outDir, ...siteConfig.baseUrl.split('/').filter(Boolean))
    const lastUpdated = readLastUpdated(this.config.docsDir)
    const sources = loadDocs(
      { root: this.config.root, docsDir: this.config.docsDir, baseUrl: siteConfig.baseUrl },
      this.diagnostics,
    )
    this.staticFiles = listStaticFiles(this.config.staticDir, siteConfig.baseUrl)
    const routeOfFile = new Map(sources.map((doc) => [doc.file, doc.route]))
    const ctx = { docsDir: this.config.docsDir, baseUrl: siteConfig.baseUrl, routeOfFile }
    this.assets = new AssetCollector(siteConfig.baseUrl, (path) => this.staticFiles.has(path))
    this.processor = createProcessor({
      resolveLink: (href, from) => resolveLink(ctx, href, from),
      resolveImage: this.assets.resolveImage,
    })
    const pool = await this.startPool(sources, routeOfFile)
    try {
      const rendered = pool
        ? await pool.renderMarkdown(sources).then(({ results, copies }) => {
            for (const [from, to] of copies) this.assets.copies.set(from, to)
            return results
          })
        : sources.map((source) => renderDoc(this.processor, source))
      this.docs = new Map(
        sources.map((source, i) => [source.file, { source, rendered: this.report(rendered[i]) }]),
      )
      this.resolveSidebars()
      this.lastUpdated = await lastUpdated
      this.targets = this.linkTargets()
      this.checkLinks()
      if (!this.options.dev) this.diagnostics.throwIfErrors()

      rmSync(this.options.outDir, { recursive: true, force: true })
      mkdirSync(this.outBase, { recursive: true })
      copyStaticFiles(this.config.staticDir, this.outBase)
      this.siteAssets = {
        ...(await writeAssets(this.outBase, siteConfig.baseUrl, this.options.dev ?? false)),
        sidebars: {},
      }
      this.writeSidebarData()
      const states = [...this.docs.values()]
      if (pool)
        await pool.writePages(
          this.site,
          states.map((state) => this.pageModel(state)),
          this.options.outDir,
        )
      else this.writeDocs(states)
      const routes = states.map((state) => state.source.route)
      routes.push(...this.writeSpecialPages())
      return this.result(routes, true)
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
    for (const file of files) {
      const before = this.docs.get(file)
      if (!before || !existsSync(file)) return this.buildAll()
      const source = readDoc(
        { root: this.config.root, docsDir: this.config.docsDir, baseUrl: this.config.site.baseUrl },
        file,
        this.diagnostics,
      )
      if (!source || source.route !== before.source.route || source.id !== before.source.id)
        return this.buildAll()
      const state = { source, rendered: this.report(renderDoc(this.processor, source)) }
      sidebarsChanged ||= SIDEBAR_FIELDS(state) !== SIDEBAR_FIELDS(before)
      idsChanged ||= state.rendered.ids.join('\n') !== before.rendered.ids.join('\n')
      this.docs.set(file, state)
      this.targets.set(source.route, { ids: new Set(state.rendered.ids) })
      changed.push(state)
    }
    if (sidebarsChanged) {
      this.resolveSidebars()
      this.writeSidebarData()
    }
    // Other pages' anchors into the edited ones can only break when their ids change.
    this.checkLinks(idsChanged ? undefined : changed)
    const routes = this.writeDocs(sidebarsChanged ? [...this.docs.values()] : changed)
    if (sidebarsChanged) this.writeSitemap()
    this.scheduleSearch()
    return this.result(routes, false)
  }

  private result(routes: string[], full: boolean): BuildResult {
    if (full) this.copied.clear()
    for (const [source, out] of this.assets.copies) {
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

  /** Workers pay off only for full builds of big sites. */
  private async startPool(
    sources: DocSource[],
    routeOfFile: Map<string, string>,
  ): Promise<RenderPool | undefined> {
    const size = this.options.workers ?? defaultPoolSize()
    if (size < 2 || sources.length < POOL_THRESHOLD) return undefined
    return RenderPool.start(size, {
      type: 'init',
      docsDir: this.config.docsDir,
      baseUrl: this.config.site.baseUrl,
      routes: [...routeOfFile],
      staticFiles: [...this.staticFiles],
    })
  }

  private resolveSidebars(): void {
    const sidebarDocs = [...this.docs.values()].map(({ source, rendered }) => ({
      id: source.id,
      dir: source.dir,
      isIndex: source.isIndex,
      route: source.route,
      title: rendered.title,
      sidebarLabel: source.frontMatter.sidebar_label,
      sidebarPosition: source.frontMatter.sidebar_position,
      unlisted: source.frontMatter.unlisted,
    }))
    this.sidebars = resolveSidebars(this.config.sidebars, sidebarDocs, this.diagnostics)
    this.placements = placeDocs(this.sidebars)
  }

  /** The sidebars as JSON for client navigation; pages name them, so this precedes page writes. */
  private writeSidebarData(): void {
    this.siteAssets.sidebars = writeSidebarData(
      this.outBase,
      this.config.site.baseUrl,
      this.sidebars,
    )
  }

  private get site(): SiteModel {
    return { config: this.config.site, assets: this.siteAssets, sidebars: this.sidebars }
  }

  private get specialRoutes() {
    const { baseUrl, title, tagline } = this.config.site
    const hasHome = [...this.docs.values()].some((d) => d.source.route === baseUrl)
    const searchRoute = `${baseUrl}search/`
    return {
      landing: hasHome ? undefined : specialPageModel('landing', baseUrl, title, tagline),
      search: [...this.docs.values()].some((d) => d.source.route === searchRoute)
        ? undefined
        : specialPageModel('search', searchRoute, 'Search'),
      notFound: specialPageModel('not-found', `${baseUrl}404/`, 'Page Not Found'),
    }
  }

  /** Pages and their ids, the targets of the link check. */
  private linkTargets(): Map<string, LinkTarget> {
    const targets = new Map<string, LinkTarget>()
    for (const { source, rendered } of this.docs.values())
      targets.set(source.route, { ids: new Set(rendered.ids) })
    const { landing, search } = this.specialRoutes
    for (const page of [landing, search]) if (page) targets.set(page.route, { ids: new Set() })
    return targets
  }

  /** Checks the links of `pages` (all pages and the config's links when not given). */
  private checkLinks(pages?: DocState[]): void {
    const sources = (pages ?? [...this.docs.values()]).map(({ source, rendered }) => ({
      displayPath: source.displayPath,
      links: rendered.links,
    }))
    if (!pages) {
      const configLinks = [
        ...this.config.site.navbar.items,
        ...this.config.site.footer.columns.flatMap((c) => c.items),
      ].flatMap((item) => (item.to ? [{ url: item.to }] : []))
      sources.push({ displayPath: 'content/site.config.ts', links: configLinks })
    }
    const copied = new Set(
      [...this.assets.copies.values()].map((out) => `${this.config.site.baseUrl}${out}`),
    )
    checkLinks(
      sources,
      this.config.site.baseUrl,
      this.targets,
      (path) => this.staticFiles.has(path) || copied.has(path),
      this.diagnostics,
    )
  }

  private pageModel({ source, rendered }: DocState): PageModel {
    return docPageModel(
      source,
      rendered,
      this.placements.get(source.route),
      this.lastUpdated.get(source.file),
    )
  }

  private writeDocs(states: DocState[]): string[] {
    return states.map((state) => {
      const page = this.pageModel(state)
      writePage(this.options.outDir, page, renderPage(this.site, page))
      return page.route
    })
  }

  private writeSpecialPages(): string[] {
    const { landing, notFound, search } = this.specialRoutes
    const routes: string[] = []
    if (landing) {
      writePage(this.options.outDir, landing, renderPage(this.site, landing))
      routes.push(landing.route)
    }
    if (search) {
      writePage(this.options.outDir, search, renderPage(this.site, search))
      routes.push(search.route)
    }
    // The not-found page lives at `<base>404.html`, where static hosts look for it.
    writeFileSync(join(this.outBase, '404.html'), renderPage(this.site, notFound))
    this.writeSitemap()
    this.writeSearch()
    return routes
  }

  private searchTimer: NodeJS.Timeout | undefined

  /**
   * After an edit, the dev server rebuilds the indexes once edits pause for a second, off the
   * edit-to-reload path (on a 2,000-page site a rebuild takes seconds and would hold up the next
   * page rebuild); a production build never comes here.
   */
  private scheduleSearch(): void {
    clearTimeout(this.searchTimer)
    this.searchTimer = setTimeout(() => this.writeSearch(), 1000)
  }

  /** Rebuilds the search indexes from the rendered docs (listed pages only). */
  private writeSearch(): void {
    const { site } = this.config
    const guideLabel = (route: string) =>
      site.guides.find((g) => g.id === contextOf(route, site.baseUrl))?.label
    const pages = [...this.docs.values()]
      .filter(({ source }) => !source.frontMatter.unlisted)
      .map(({ source, rendered }) => ({
        route: source.route,
        title: rendered.title,
        breadcrumbs: [
          guideLabel(source.route),
          ...(this.placements.get(source.route)?.breadcrumbs ?? []).map((crumb) => crumb.label),
        ].filter((label): label is string => Boolean(label)),
        sections: rendered.sections,
      }))
    writeSearchIndexes(
      this.outBase,
      site.baseUrl,
      site.versions[0].name,
      pages,
      site.search.ignorePatterns,
    )
  }

  private writeSitemap(): void {
    const { site } = this.config
    const entries = [...this.docs.values()]
      .filter(({ source }) => !source.frontMatter.unlisted)
      .map(({ source }) => ({
        route: source.route,
        lastUpdated: this.lastUpdated.get(source.file),
      }))
    if (this.specialRoutes.landing) entries.push({ route: site.baseUrl, lastUpdated: undefined })
    writeFileSync(
      join(this.outBase, 'sitemap.xml'),
      generateSitemap(site.url, entries, site.sitemap.ignorePatterns, site.sitemap.changefreq),
    )
  }

  /** Folder of a route in the output tree. */
  dirOf(route: string): string {
    return routeDir(this.options.outDir, route)
  }
}

/** `docs build`: a full build that fails on any error. */
export const build = async (options: BuildOptions): Promise<BuildResult> => {
  const result = await new SiteBuilder(options).buildAll()
  if (result.errors.length) throw new BuildFailedError(result.errors)
  return result
}
