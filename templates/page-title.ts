// The document title of a page (the build's <title> and client navigation's document.title).
import type { SiteConfig } from '../model/site-config.ts'
import type { ClientPage } from '../model/site-model.ts'

export const pageTitle = (config: SiteConfig, page: ClientPage): string =>
  page.kind === 'landing' ? config.title : `${page.title} | ${config.title}`
