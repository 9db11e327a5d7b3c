// The data the templates render: one SiteModel per build, one PageModel per page. The same
// page data is written as JSON for the browser.
import type { SiteConfig } from '../cli/site-config.ts'

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
}

/** A page as the browser receives it: the model without its rendered body. */
export type ClientPage = Omit<PageModel, 'html'>

/** What every page embeds for its islands and the client router (`#__keyward-data`). */
export interface ClientData {
  config: SiteConfig
  assets: SiteAssets
  page: ClientPage
}
