// The templates' strings in a page's language: English (./i18n/en.ts) overlaid with the
// locale's translation, which the build reads from content/i18n/<code>/strings.json into the
// site config. The page's locale follows from its route (model/variants.ts).
import type { SiteConfig } from '../model/site-config.ts'
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
