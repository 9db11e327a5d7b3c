// The templates' strings in a page's language: English (./i18n/en.ts) overlaid with the
// locale's translation, which the build reads from content/i18n/<code>/strings.json into the
// site config. The page's locale follows from its route (model/variants.ts). The same file
// translates the site config's own words (navbar and footer), under `site:<English text>` keys.
import type { SiteConfig } from '../model/site-config.ts'
import { SITE_TEXT_PREFIX } from '../model/site-texts.ts'
import { variantOf } from '../model/variants.ts'
import { en, type StringKey } from './i18n/en.ts'
import { useSite } from './SiteContext.tsx'

export type Strings = (key: StringKey, values?: Record<string, string | number>) => string

/** The strings of a locale, English where its translation lacks a key. */
export const stringsOf = (config: SiteConfig, locale: string): Strings => {
  const translated = config.locales.items.find((item) => item.code === locale)?.strings
  return (key, values) => {
    const text: string = translated?.[key] ?? en[key]
    return values ? text.replace(/\{(\w+)\}/g, (all, name) => String(values[name] ?? all)) : text
  }
}

/** The strings of the page at `route`. */
export const stringsFor = (config: SiteConfig, route: string): Strings =>
  stringsOf(config, variantOf(config, route).locale)

/** The strings of the page at `route`, in a component. */
export const useStrings = (route: string): Strings => stringsFor(useSite().config, route)

/** A text of the site config in a locale (as written when the locale does not translate it). */
export const siteTextOf =
  (config: SiteConfig, locale: string) =>
  (text: string): string =>
    config.locales.items.find((item) => item.code === locale)?.strings?.[
      `${SITE_TEXT_PREFIX}${text}`
    ] ?? text

/** A text of the site config on the page at `route`, in a component. */
export const useSiteText = (route: string): ((text: string) => string) => {
  const { config } = useSite()
  return siteTextOf(config, variantOf(config, route).locale)
}
