// The API reference page of a build: its page model (the content rendered at build time from the
// document), the document and layout JSON written beside it, the anchors links may target and
// what the site search indexes (one section per operation). The rendering is cached under the
// document's key and the templates' identity.
import { renderToStaticMarkup } from 'react-dom/server'
import type { SiteConfig } from '../../model/site-config.ts'
import type { PageModel, SidebarItem } from '../../model/site-model.ts'
import { ApiReference } from '../../templates/api/ApiReference.tsx'
import { buildLayout, operationAnchor, operationsOf } from '../../templates/api/layout.ts'
import type { BuildCache } from '../cache/build-cache.ts'
import { templatesKey } from '../cache/code-keys.ts'
import { hashInput } from '../cache/hash.ts'
import type { SearchablePage } from '../search/search-index.ts'
import type { LoadedDocument } from './load-document.ts'

export const DOCUMENT_FILE = 'openapi.json'
export const LAYOUT_FILE = 'layout.json'

export interface ApiReferencePage {
  page: PageModel
  /** Files below the base URL: the document and the layout. */
  files: [string, string][]
  /** Every id in the page, for the link check. */
  ids: string[]
  searchable: SearchablePage
}

/** The links of a sidebar (its categories' too), for the page's navigation. */
const linksOf = (items: SidebarItem[]): { label: string; href: string }[] =>
  items.flatMap((item) =>
    item.type === 'link'
      ? [{ label: item.label, href: item.href }]
      : [...(item.href ? [{ label: item.label, href: item.href }] : []), ...linksOf(item.items)],
  )

const plain = (text: string) => text.replace(/`/g, '')

export const buildApiReference = (
  loaded: LoadedDocument,
  site: SiteConfig,
  sidebars: Record<string, SidebarItem[]>,
  cache: BuildCache | undefined,
): ApiReferencePage => {
  const reference = site.apiReference!
  const { route } = reference
  const { document } = loaded
  const layout = buildLayout(document, route)
  const guides = linksOf(reference.sidebar ? (sidebars[reference.sidebar] ?? []) : []).filter(
    (link) => link.href !== route,
  )
  const files = { document: `${route}${DOCUMENT_FILE}`, layout: `${route}${LAYOUT_FILE}` }
  const key = hashInput([loaded.key, templatesKey(), route, guides])
  let html = cache?.entry<string>('api-reference', key)
  if (html === undefined) {
    html = renderToStaticMarkup(
      <ApiReference document={document} layout={layout} guides={guides} files={files} />,
    )
    cache?.storeEntry('api-reference', key, html)
  }
  const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((match) => match[1])
  const below = route.slice(site.baseUrl.length)
  const guideLabel = site.guides.find((guide) => guide.id === below.split('/')[0])?.label
  return {
    page: {
      kind: 'api',
      route,
      title: layout.title,
      description: plain(document.info.description ?? ''),
      html,
      toc: [],
      breadcrumbs: [],
      unlisted: false,
      noindex: false,
    },
    files: [
      [`${below}${DOCUMENT_FILE}`, loaded.json],
      [`${below}${LAYOUT_FILE}`, JSON.stringify(layout)],
    ],
    ids,
    searchable: {
      route,
      title: layout.title,
      breadcrumbs: guideLabel ? [guideLabel] : [],
      sections: [
        { id: '', heading: '', text: plain(document.info.description ?? '') },
        ...operationsOf(document).map(({ method, path, operation }) => ({
          id: operationAnchor(method, path),
          heading: `${method.toUpperCase()} ${path}: ${plain(operation.summary ?? '')}`,
          text: [
            plain(operation.description ?? ''),
            ...(operation.parameters ?? []).map((parameter) => parameter.name),
          ].join(' '),
        })),
      ],
    },
  }
}
