// The data the templates render: one SiteModel per build, one PageModel per page. The same
// page data is written as JSON for the browser.
import type { SiteConfig } from './site-config.ts'

export type SidebarItem =
  | { type: 'link'; label: string; href: string; docId?: string }
  | {
      type: 'category'
      label: string
      /** The category's index page, if it has one. */
      href?: string
      collapsed: boolean
      items: SidebarItem[]
    }

export interface Crumb {
  label: string
  href?: string
}

export interface TocItem {
  id: string
  text: string
  level: number
}

export interface PageLink {
  label: string
  href: string
}

export interface SiteAssets {
  css: string
  /** KaTeX's stylesheet, linked by the pages that hold math only. */
  mathCss: string
  js: string
  /** Chunks `js` imports up front (preloaded, so they do not wait for it). */
  preload: string[]
  /** The search web worker (loaded when the reader first searches). */
  searchWorker: string
  /** The search results page's code (loaded by that page only). */
  searchPage: string
  /** Dev server only: the live-reload client. */
  devReload?: string
  /** Each sidebar's items as a hashed JSON file, keyed by sidebar id (client navigation). */
  sidebars: Record<string, string>
}

export interface SiteModel {
  config: SiteConfig
  assets: SiteAssets
  sidebars: Record<string, SidebarItem[]>
}

export interface PageModel {
  /** `api`: the API reference, its content rendered by the build (cli/api-reference/). */
  kind: 'doc' | 'landing' | 'not-found' | 'search' | 'api'
  route: string
  title: string
  description: string
  /** Rendered Markdown body (trusted: produced by the build from the repository's content). */
  html: string
  toc: TocItem[]
  sidebarId?: string
  breadcrumbs: Crumb[]
  previous?: PageLink
  next?: PageLink
  /** Last commit time in seconds since the epoch, from git. */
  lastUpdated?: number
  unlisted: boolean
  noindex: boolean
  /** What the page's content needs beyond the site's stylesheet (`math`: KaTeX's). */
  features?: PageFeature[]
  /** "Edit this page": the doc's source in the repository. */
  editUrl?: string
  /** Front matter `keywords` (`<meta name="keywords">`). */
  keywords?: string[]
  /** Front matter `image`, for link previews. */
  image?: string
  /** Only on a site with several locales or versions. */
  variants?: PageVariants
}

export type PageFeature = 'math'

/** Where a page is in the site's other locales and versions (sites that have some). */
export interface PageVariants {
  /** The page's language (`lang`). */
  locale: string
  /** The page's version name. */
  version: string
  /** Not translated into `locale` yet: its content is the default locale's. */
  fallback?: boolean
  /** Each locale's link to this page (that locale's landing page when it has no such page). */
  locales: { code: string; label: string; href: string; translated: boolean }[]
  /** Each version's link to this page (that version's landing page when it has no such page). */
  versions: { name: string; label: string; href: string }[]
  /** The current docs' page in the default locale this one stands for, if any (canonical). */
  canonical?: string
}

/** A page as the browser receives it: the model without its rendered body. */
export type ClientPage = Omit<PageModel, 'html'>

/** What every page embeds for its islands and the client router (`#__keyward-data`). */
export interface ClientData {
  config: SiteConfig
  assets: SiteAssets
  page: ClientPage
}
