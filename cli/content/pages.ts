// Turns rendered docs and sidebar placements into the page models the templates render.
import { posix } from 'node:path'
import type { SiteConfig } from '../../model/site-config.ts'
import type { PageFeature, PageModel } from '../../model/site-model.ts'
import type { LinkRef, TocHeading } from '../markdown/data.ts'
import type { Section } from '../markdown/rehype-sections.ts'
import type { DocSource } from './content.ts'
import type { DocPlacement } from './sidebars.ts'

export interface RenderedDoc {
  /** Searchable sections (see markdown/rehype-sections.ts). */
  sections: Section[]
  html: string
  title: string
  headings: TocHeading[]
  ids: string[]
  links: LinkRef[]
}

export const titleOf = (doc: DocSource, h1: string | undefined): string =>
  doc.frontMatter.title ??
  h1 ??
  (doc.isIndex ? posix.basename(doc.dir) || 'Home' : posix.basename(doc.relPath, '.md')).replace(
    /[-_]+/g,
    ' ',
  )

/** What a rendered body needs beyond the site's stylesheet (KaTeX marks each formula). */
export const featuresOf = (html: string): PageFeature[] | undefined =>
  html.includes('<span class="katex">') ? ['math'] : undefined

/** "Edit this page": `editPath` with the doc's path below content/docs/, after `repositoryUrl`. */
export const editUrlOf = (site: SiteConfig, relPath: string): string | undefined => {
  if (!site.repositoryUrl || !site.editPath) return undefined
  const path = site.editPath.replace('{path}', relPath.split('/').map(encodeURIComponent).join('/'))
  return `${site.repositoryUrl.replace(/\/$/, '')}/${path.replace(/^\//, '')}`
}

export const docPageModel = (
  doc: DocSource,
  rendered: RenderedDoc,
  placement: DocPlacement | undefined,
  lastUpdated: number | undefined,
  editUrl?: string,
): PageModel => {
  const fm = doc.frontMatter
  return {
    kind: 'doc',
    route: doc.route,
    title: rendered.title,
    description: fm.description ?? '',
    html: rendered.html,
    toc: fm.hide_table_of_contents
      ? []
      : rendered.headings.filter(
          (h) => h.level >= fm.toc_min_heading_level && h.level <= fm.toc_max_heading_level,
        ),
    sidebarId: fm.unlisted ? undefined : placement?.sidebarId,
    breadcrumbs: placement?.breadcrumbs ?? [],
    previous: fm.unlisted ? undefined : placement?.previous,
    next: fm.unlisted ? undefined : placement?.next,
    lastUpdated,
    unlisted: fm.unlisted,
    noindex: fm.unlisted,
    features: featuresOf(rendered.html),
    editUrl,
    ...(fm.keywords.length && { keywords: fm.keywords }),
    ...(fm.image && { image: fm.image }),
  }
}

/** A doc page model given its HTML (a page model made without it, see `SiteDocs.pageOutline`). */
export const withHtml = (page: PageModel, html: string): PageModel => ({
  ...page,
  html,
  features: featuresOf(html),
})

export const specialPageModel = (
  kind: 'landing' | 'not-found' | 'search',
  route: string,
  title: string,
  description = '',
): PageModel => ({
  kind,
  route,
  title,
  description,
  html: '',
  toc: [],
  breadcrumbs: [],
  unlisted: false,
  noindex: kind === 'not-found',
})
