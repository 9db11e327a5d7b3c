// A page's `hreflang` alternates: each language it is translated into, and `x-default` (the
// first of them). Written into the head by the build and replaced by client navigation.
import type { SiteConfig } from '../model/site-config.ts'
import type { ClientPage } from '../model/site-model.ts'

export const alternateLinks = (
  config: SiteConfig,
  page: ClientPage,
): { lang: string; href: string }[] => {
  const translations = page.variants?.locales.filter((locale) => locale.translated) ?? []
  if (translations.length < 2 || page.noindex) return []
  return [
    ...translations.map((locale) => ({ lang: locale.code, href: `${config.url}${locale.href}` })),
    { lang: 'x-default', href: `${config.url}${translations[0].href}` },
  ]
}
