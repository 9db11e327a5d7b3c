// The rendered docs of a site and what follows from them alone: sidebars and each page's
// place in them, the special pages, link targets, the page models, the search and sitemap
// entries. No IO.
import { relative, sep } from 'node:path'
import type { PageModel, SidebarItem } from '../../model/site-model.ts'
import { hasVariants, variantOf, variantsOf } from '../../model/variants.ts'
import { en } from '../../templates/i18n/en.ts'
import type { ResolvedConfig } from '../config/config.ts'
import { Diagnostics } from '../errors.ts'
import { checkLinks, type LinkTarget } from '../markdown/links.ts'
import type { SitemapEntry } from '../output/sitemap.ts'
import { contextOf, type SearchablePage } from '../search/search-index.ts'
import type { DocSource } from './content.ts'
import { localizeLinks } from './localize-links.ts'
import { docPageModel, editUrlOf, type RenderedDoc, specialPageModel } from './pages.ts'
import { type DocPlacement, placeDocs, resolveSidebars } from './sidebars.ts'
import { pageVariants } from './variants.ts'

export interface DocState {
  source: DocSource
  rendered: RenderedDoc
  /** Stands for `rendered` in keys (cli/cache/build-cache.ts `renderKeyOf`). */
  renderKey: string
}

/** What a doc shows in sidebars: when it changes, every page's sidebar may change. */
export const sidebarFields = (doc: DocState) =>
  JSON.stringify([
    doc.rendered.title,
    doc.source.frontMatter.sidebar_label,
    doc.source.frontMatter.sidebar_position,
    doc.source.frontMatter.unlisted,
  ])

/** A page the build makes from other sources than a doc (the API reference). */
export interface GeneratedPage {
  route: string
  ids: string[]
  searchable: SearchablePage
}

export class SiteDocs {
  sidebars: Record<string, SidebarItem[]> = {}
  /** Set once the API reference is built. */
  generated: GeneratedPage[] = []
  private placements = new Map<string, DocPlacement>()

  constructor(
    readonly config: ResolvedConfig,
    /** Docs by absolute file path. */
    readonly docs: Map<string, DocState>,
    private readonly lastUpdated: Map<string, number>,
  ) {}

  get states(): DocState[] {
    return [...this.docs.values()]
  }

  resolveSidebars(diagnostics: Diagnostics): void {
    // Each locale and version has the sidebars of its own docs, their ids prefixed with its key.
    const byVariant = new Map<string, DocState[]>([['', []]])
    for (const state of this.states) {
      const key = state.source.variant ?? ''
      byVariant.set(key, [...(byVariant.get(key) ?? []), state])
    }
    this.sidebars = {}
    for (const [key, states] of byVariant) {
      const sidebarDocs = states.map(({ source, rendered }) => ({
        id: source.id,
        dir: source.dir,
        isIndex: source.isIndex,
        route: source.route,
        title: rendered.title,
        sidebarLabel: source.frontMatter.sidebar_label,
        sidebarPosition: source.frontMatter.sidebar_position,
        unlisted: source.frontMatter.unlisted,
      }))
      // A locale's sidebars hold the same ids as the default's (untranslated pages stand in), so
      // their problems are the default's again; an archived version's docs may predate today's
      // sidebars, which is worth a warning, not a failed build.
      const problems = key ? new Diagnostics() : diagnostics
      const resolved = resolveSidebars(this.config.sidebars, sidebarDocs, problems)
      for (const [id, items] of Object.entries(resolved))
        this.sidebars[key ? `${key}--${id}` : id] = items
      if (key && variantsOf(this.config.site).find((v) => v.key === key)?.archived)
        for (const problem of problems.errors)
          diagnostics.warn({ ...problem, message: `version "${key}": ${problem.message}` })
    }
    this.placements = placeDocs(this.sidebars)
    this.variantRoutes = undefined
  }

  /** The site's routes and those showing untranslated pages, for the variants' links. */
  private variantRoutes: { routes: Set<string>; fallbacks: Set<string> } | undefined

  /** The site's routes and those showing untranslated pages, built once per site. */
  private routesOfVariants(): { routes: Set<string>; fallbacks: Set<string> } {
    if (!this.variantRoutes) {
      const routes = new Set(this.states.map((state) => state.source.route))
      const fallbacks = new Set(
        this.states.filter((s) => s.source.fallbackOf).map((s) => s.source.route),
      )
      // Each variant's landing and search pages, made when no doc takes their route, and the
      // locales' copies of generated pages.
      for (const variant of variantsOf(this.config.site)) {
        routes.add(variant.base)
        routes.add(`${variant.base}search/`)
      }
      for (const page of this.generated)
        for (const copy of this.localeCopies(page.route)) {
          routes.add(copy)
          fallbacks.add(copy)
        }
      this.variantRoutes = { routes, fallbacks }
    }
    return this.variantRoutes
  }

  /** The page's variants' links, on a site that has several (none otherwise). */
  private withVariants(page: PageModel, source?: DocState['source'], copy = false): PageModel {
    if (!hasVariants(this.config.site)) return page
    const { routes, fallbacks } = this.routesOfVariants()
    const variants = pageVariants(
      this.config,
      page.route,
      routes,
      copy || source?.fallbackOf !== undefined,
      fallbacks,
    )
    return { ...page, variants }
  }

  /**
   * A generated page (the API reference) as the site writes it: with its variants' links, and
   * a copy in each locale, shown untranslated.
   */
  generatedPages(page: PageModel): PageModel[] {
    if (!hasVariants(this.config.site)) return [page]
    const copies = this.localeCopies(page.route).map((route) => {
      const key = variantOf(this.config.site, route).key
      const sidebarId = page.sidebarId && `${key}--${page.sidebarId}`
      return this.withVariants(
        {
          ...page,
          route,
          sidebarId: sidebarId && this.sidebars[sidebarId] ? sidebarId : page.sidebarId,
        },
        undefined,
        true,
      )
    })
    return [this.withVariants(page), ...copies]
  }

  /** Where each locale shows a generated page of the default docs. */
  private localeCopies(route: string): string[] {
    const { site } = this.config
    return variantsOf(site)
      .slice(1)
      .filter((variant) => !variant.archived)
      .map((variant) => `${variant.base}${route.slice(site.baseUrl.length)}`)
  }

  /** The landing and search pages of each locale and archived version (no doc takes them). */
  variantPages(): PageModel[] {
    const { site } = this.config
    if (!hasVariants(site)) return []
    const routes = new Set(this.states.map((d) => d.source.route))
    const pages: PageModel[] = []
    for (const variant of variantsOf(site).slice(1)) {
      const locale = site.locales.items.find((item) => item.code === variant.locale)
      const title = variant.archived ? site.title : (locale?.title ?? site.title)
      const tagline = variant.archived ? site.tagline : (locale?.tagline ?? site.tagline)
      if (!routes.has(variant.base))
        pages.push(this.withVariants(specialPageModel('landing', variant.base, title, tagline)))
      if (!routes.has(`${variant.base}search/`))
        pages.push(
          this.withVariants(specialPageModel('search', `${variant.base}search/`, 'Search')),
        )
    }
    return pages
  }

  /** The landing and search pages when no doc takes their route, and the not-found page. */
  specialPages() {
    const { baseUrl, title, tagline } = this.config.site
    const routes = new Set(this.states.map((d) => d.source.route))
    const searchRoute = `${baseUrl}search/`
    const special = {
      landing: routes.has(baseUrl)
        ? undefined
        : specialPageModel('landing', baseUrl, title, tagline),
      search: routes.has(searchRoute)
        ? undefined
        : specialPageModel('search', searchRoute, 'Search'),
      notFound: specialPageModel('not-found', `${baseUrl}404/`, 'Page Not Found'),
    }
    if (!hasVariants(this.config.site)) return special
    return {
      landing: special.landing && this.withVariants(special.landing),
      search: special.search && this.withVariants(special.search),
      notFound: special.notFound,
    }
  }

  /**
   * Each other locale's not-found page (at `<base><code>/404/`, written as `<code>/404.html`),
   * in its language: the servers answer a path below the locale with it.
   */
  localeNotFoundPages(): PageModel[] {
    const { site } = this.config
    return variantsOf(site)
      .slice(1)
      .filter((variant) => !variant.archived)
      .map((variant) => {
        const strings = site.locales.items.find((item) => item.code === variant.locale)?.strings
        const title = strings?.['notFound.title'] ?? en['notFound.title']
        return this.withVariants(specialPageModel('not-found', `${variant.base}404/`, title))
      })
  }

  /** Pages and their ids, the targets of the link check. */
  linkTargets(): Map<string, LinkTarget> {
    const targets = new Map<string, LinkTarget>()
    for (const { source, rendered } of this.states)
      targets.set(source.route, { ids: new Set(rendered.ids) })
    const { landing, search } = this.specialPages()
    for (const page of [landing, search, ...this.variantPages()])
      if (page) targets.set(page.route, { ids: new Set() })
    for (const page of this.generated)
      for (const route of [page.route, ...this.localeCopies(page.route)])
        targets.set(route, { ids: new Set(page.ids) })
    return targets
  }

  /** Checks the links of `pages` (all pages and the config's links when not given). */
  checkLinks(
    targets: Map<string, LinkTarget>,
    fileExists: (path: string) => boolean,
    diagnostics: Diagnostics,
    pages?: DocState[],
  ): void {
    // An untranslated page's links are its default-locale doc's, checked there.
    const sources = (pages ?? this.states)
      .filter(({ source }) => !source.fallbackOf)
      .map(({ source, rendered }) => ({
        displayPath: source.displayPath,
        links: rendered.links,
      }))
    if (!pages) {
      const { site } = this.config
      const configLinks = [
        ...site.navbar.items,
        ...site.footer.columns.flatMap((c) => c.items),
      ].flatMap((item) => (item.to ? [{ url: item.to }] : []))
      sources.push({ displayPath: 'content/site.config.ts', links: configLinks })
    }
    checkLinks(sources, this.config.site.baseUrl, targets, fileExists, diagnostics)
  }

  /**
   * The page model with an empty `html`, for its key (with the doc's `renderKey`): a cached
   * doc's HTML is read only for a page that is written.
   */
  pageOutline({ source, rendered }: DocState): PageModel {
    const { title, headings, ids, links } = rendered
    return this.docPage(source, { title, headings, ids, links, sections: [], html: '' })
  }

  private docPage(source: DocState['source'], rendered: RenderedDoc): PageModel {
    const page = docPageModel(
      source,
      rendered,
      this.placements.get(source.route),
      this.lastUpdated.get(source.fallbackOf ?? source.file),
      this.editUrl(source),
    )
    return this.withVariants(page, source)
  }

  /** A translation's edit link names its own file; an untranslated page has none to edit. */
  private editUrl(source: DocState['source']): string | undefined {
    const { site, root } = this.config
    if (source.fallbackOf) return undefined
    if (!source.variant) return editUrlOf(site, source.relPath)
    const docsPath = site.editPath?.includes('content/docs/{path}')
    if (!docsPath) return undefined
    const file = relative(root, source.file).split(sep).join('/')
    return editUrlOf(
      { ...site, editPath: site.editPath!.replace('content/docs/{path}', '{path}') },
      file,
    )
  }

  /** What the search index is made from, with each doc's sections stood for by its key. */
  searchInput(): unknown[] {
    const byRoute = new Map(this.states.map((state) => [state.source.route, state]))
    return this.searchablePages().map((page) => {
      const state = byRoute.get(page.route)
      if (!state) return page
      const { route, title, breadcrumbs } = page
      return { route, title, breadcrumbs, sections: state.renderKey }
    })
  }

  pageModel({ source, rendered }: DocState): PageModel {
    if (!source.fallbackOf || !source.variant) return this.docPage(source, rendered)
    // Shown untranslated: its links lead to the pages of its locale.
    const { baseUrl } = this.config.site
    const html = localizeLinks(
      rendered.html,
      baseUrl,
      `${baseUrl}${source.variant}/`,
      this.routesOfVariants().routes,
    )
    return this.docPage(source, { ...rendered, html })
  }

  /** What the search index holds of `states` (listed pages only). */
  searchablePages(states?: DocState[], variant = ''): SearchablePage[] {
    const { site } = this.config
    const base = variant ? `${site.baseUrl}${variant}/` : site.baseUrl
    const guides = site.locales.items.find((item) => item.code === variant)?.guides
    const guideLabel = (route: string) => {
      const id = contextOf(route, base)
      return guides?.[id ?? '']?.label ?? site.guides.find((g) => g.id === id)?.label
    }
    // Each locale and version has an index of its own (`variantSearch`).
    const pages = (states ?? this.states)
      .filter(({ source }) => !source.frontMatter.unlisted && (source.variant ?? '') === variant)
      .map(({ source, rendered }) => ({
        route: source.route,
        title: rendered.title,
        breadcrumbs: [
          guideLabel(source.route),
          ...(this.placements.get(source.route)?.breadcrumbs ?? []).map((crumb) => crumb.label),
        ].filter((label): label is string => Boolean(label)),
        // Read only if the index analyses the doc: a cached doc's sections are in a file.
        get sections() {
          return rendered.sections
        },
      }))
    // The dev server asks for the docs an edit touched only.
    return states || variant ? pages : [...pages, ...this.generated.map((page) => page.searchable)]
  }

  sitemapEntries(): SitemapEntry[] {
    const entries: (SitemapEntry & { canonical?: string })[] = this.states
      .filter(({ source }) => !source.frontMatter.unlisted && !source.fallbackOf)
      .map((state) => ({
        route: state.source.route,
        lastUpdated: this.lastUpdated.get(state.source.file),
        ...this.alternatesOf(this.pageOutline(state)),
      }))
    const { landing } = this.specialPages()
    if (landing)
      entries.push({ route: landing.route, lastUpdated: undefined, ...this.alternatesOf(landing) })
    for (const page of this.variantPages())
      if (page.kind === 'landing')
        entries.push({ route: page.route, lastUpdated: undefined, ...this.alternatesOf(page) })
    for (const page of this.generated) entries.push({ route: page.route, lastUpdated: undefined })
    // A copy that names another page canonical (an archived page the current docs still have)
    // is not listed.
    return entries.filter((entry) => !entry.canonical).map(({ canonical: _, ...entry }) => entry)
  }

  /** A page's translations (`hreflang`), for the sitemap. */
  private alternatesOf(page: PageModel) {
    const { variants } = page
    if (!variants) return {}
    const alternates = variants.locales
      .filter((locale) => locale.translated)
      .map((locale) => ({ hreflang: locale.code, route: locale.href }))
    const fallback = variants.locales.find((l) => l.code === this.config.site.locales.default)
    if (alternates.length > 1 && fallback?.translated)
      alternates.push({ hreflang: 'x-default', route: fallback.href })
    return {
      canonical: variants.canonical,
      ...(alternates.length > 1 && { alternates }),
    }
  }
}
