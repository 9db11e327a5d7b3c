// The rendered docs of a site and what follows from them alone: sidebars and each page's
// place in them, the special pages, link targets, the page models, the search and sitemap
// entries. No IO.
import type { PageModel, SidebarItem } from '../templates/model.ts'
import type { ResolvedConfig } from './config.ts'
import type { DocSource } from './content.ts'
import type { Diagnostics } from './errors.ts'
import { checkLinks, type LinkTarget } from './links.ts'
import { docPageModel, type RenderedDoc, specialPageModel } from './pages.ts'
import { contextOf, type SearchablePage } from './search-index.ts'
import { type DocPlacement, placeDocs, resolveSidebars } from './sidebars.ts'
import type { SitemapEntry } from './sitemap.ts'

export interface DocState {
  source: DocSource
  rendered: RenderedDoc
  /** Stands for `rendered` in keys (cli/build-cache.ts `renderKeyOf`). */
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
    const sidebarDocs = this.states.map(({ source, rendered }) => ({
      id: source.id,
      dir: source.dir,
      isIndex: source.isIndex,
      route: source.route,
      title: rendered.title,
      sidebarLabel: source.frontMatter.sidebar_label,
      sidebarPosition: source.frontMatter.sidebar_position,
      unlisted: source.frontMatter.unlisted,
    }))
    this.sidebars = resolveSidebars(this.config.sidebars, sidebarDocs, diagnostics)
    this.placements = placeDocs(this.sidebars)
  }

  /** The landing and search pages when no doc takes their route, and the not-found page. */
  specialPages() {
    const { baseUrl, title, tagline } = this.config.site
    const routes = new Set(this.states.map((d) => d.source.route))
    const searchRoute = `${baseUrl}search/`
    return {
      landing: routes.has(baseUrl)
        ? undefined
        : specialPageModel('landing', baseUrl, title, tagline),
      search: routes.has(searchRoute)
        ? undefined
        : specialPageModel('search', searchRoute, 'Search'),
      notFound: specialPageModel('not-found', `${baseUrl}404/`, 'Page Not Found'),
    }
  }

  /** Pages and their ids, the targets of the link check. */
  linkTargets(): Map<string, LinkTarget> {
    const targets = new Map<string, LinkTarget>()
    for (const { source, rendered } of this.states)
      targets.set(source.route, { ids: new Set(rendered.ids) })
    const { landing, search } = this.specialPages()
    for (const page of [landing, search]) if (page) targets.set(page.route, { ids: new Set() })
    for (const page of this.generated) targets.set(page.route, { ids: new Set(page.ids) })
    return targets
  }

  /** Checks the links of `pages` (all pages and the config's links when not given). */
  checkLinks(
    targets: Map<string, LinkTarget>,
    fileExists: (path: string) => boolean,
    diagnostics: Diagnostics,
    pages?: DocState[],
  ): void {
    const sources = (pages ?? this.states).map(({ source, rendered }) => ({
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
    return docPageModel(
      source,
      { title, headings, ids, links, sections: [], html: '' },
      this.placements.get(source.route),
      this.lastUpdated.get(source.file),
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
    return docPageModel(
      source,
      rendered,
      this.placements.get(source.route),
      this.lastUpdated.get(source.file),
    )
  }

  /** What the search index holds of `states` (listed pages only). */
  searchablePages(states?: DocState[]): SearchablePage[] {
    const { site } = this.config
    const guideLabel = (route: string) =>
      site.guides.find((g) => g.id === contextOf(route, site.baseUrl))?.label
    const pages = (states ?? this.states)
      .filter(({ source }) => !source.frontMatter.unlisted)
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
    return states ? pages : [...pages, ...this.generated.map((page) => page.searchable)]
  }

  sitemapEntries(): SitemapEntry[] {
    const entries: SitemapEntry[] = this.states
      .filter(({ source }) => !source.frontMatter.unlisted)
      .map(({ source }) => ({
        route: source.route,
        lastUpdated: this.lastUpdated.get(source.file),
      }))
    if (this.specialPages().landing)
      entries.push({ route: this.config.site.baseUrl, lastUpdated: undefined })
    for (const page of this.generated) entries.push({ route: page.route, lastUpdated: undefined })
    return entries
  }
}
