// Where a route sits among the site's locales and versions. Each locale besides the default and
// each archived version is a variant of the docs below its own URL segment; the default locale's
// current docs sit at the base URL. Pure: the build and the templates (in the browser too) use it.
import type { SiteConfig } from './site-config.ts'

export interface Variant {
  /** The URL segment below the base URL; '' for the current docs in the default locale. */
  key: string
  /** The locale's code (the pages' `lang`). */
  locale: string
  /** The version's name. */
  version: string
  /** The variant's first route, e.g. `/docs/fr/`. */
  base: string
  /** An archived version (not the current docs). */
  archived: boolean
}

/** Whether the site has more than the current docs in one language. */
export const hasVariants = (config: SiteConfig): boolean =>
  config.locales.items.length > 1 || config.versions.length > 1

/** Every variant of the site, the default first. */
export const variantsOf = (config: SiteConfig): Variant[] => {
  const { baseUrl, locales, versions } = config
  const current = versions[0].name
  const variants: Variant[] = [
    { key: '', locale: locales.default, version: current, base: baseUrl, archived: false },
  ]
  for (const { code } of locales.items)
    if (code !== locales.default)
      variants.push({
        key: code,
        locale: code,
        version: current,
        base: `${baseUrl}${code}/`,
        archived: false,
      })
  for (const version of versions.slice(1)) {
    const key = version.path || version.name
    variants.push({
      key,
      locale: locales.default,
      version: version.name,
      base: `${baseUrl}${key}/`,
      archived: true,
    })
  }
  return variants
}

/** The variant a route belongs to (the default when no other's segment starts it). */
export const variantOf = (config: SiteConfig, route: string): Variant => {
  const variants = variantsOf(config)
  return variants.find((v) => v.key && route.startsWith(v.base)) ?? variants[0]
}

/** The search index's name for a variant: the current version's name for the default. */
export const searchIndexName = (config: SiteConfig, variant: Variant): string =>
  variant.key || config.versions[0].name
