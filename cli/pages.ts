// Turns rendered docs and sidebar placements into the page models the templates render.
import { posix } from 'node:path'
import type { PageModel } from '../templates/model.ts'
import type { DocSource } from './content.ts'
import type { LinkRef, TocHeading } from './markdown/data.ts'
import type { Section } from './markdown/rehype-sections.ts'
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

export const docPageModel = (
  doc: DocSource,
  rendered: RenderedDoc,
  placement: DocPlacement | undefined,
  lastUpdated: number | undefined,
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
  }
}

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
