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
  /** The search web worker (loaded when the reader first searches). */
  searchWorker: string
  /** Dev server only: the live-reload client. */
  devReload?: string
}

export interface SiteModel {
  config: SiteConfig
  assets: SiteAssets
  sidebars: Record<string, SidebarItem[]>
}

export interface PageModel {
  kind: 'doc' | 'landing' | 'not-found' | 'search'
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
