// The links of a page shown untranslated in another locale (its HTML is the default locale's
// doc's): each one to a page of the default locale's docs goes to that page in the locale, so
// a reader who chose French stays in French. Links to files, to other locales and versions, and
// outside the site are left alone.

/**
 * @param baseUrl the default locale's base, e.g. `/docs/`
 * @param localeBase the page's locale's base, e.g. `/docs/fr/`
 * @param routes the site's routes: a link is moved only to a page that exists
 */
export const localizeLinks = (
  html: string,
  baseUrl: string,
  localeBase: string,
  routes: Set<string>,
): string =>
  html.replace(/(<a\s[^>]*?href=")([^"]*)"/g, (whole, start: string, href: string) => {
    if (!href.startsWith(baseUrl) || href.startsWith(localeBase)) return whole
    const end = href.search(/[?#]/)
    const path = end < 0 ? href : href.slice(0, end)
    const localized = `${localeBase}${path.slice(baseUrl.length)}`
    if (!routes.has(localized)) return whole
    return `${start}${localized}${end < 0 ? '' : href.slice(end)}"`
  })
