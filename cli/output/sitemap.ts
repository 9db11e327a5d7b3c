// sitemap.xml for the listed pages, without the configured ignore patterns.

/** Converts a route glob (`*` one segment, `**` any depth) to a RegExp. */
export const globToRegExp = (pattern: string): RegExp => {
  const source = pattern
    .split(/(\*\*\/?|\*)/)
    .map((part) => {
      if (part === '**' || part === '**/') return '.*'
      if (part === '*') return '[^/]*'
      return part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    })
    .join('')
  return new RegExp(`^${source}$`)
}

const escapeXml = (value: string) =>
  value.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  )

export interface SitemapEntry {
  route: string
  lastUpdated?: number
  /** The page in each language it is translated into, itself included (`hreflang`). */
  alternates?: { hreflang: string; route: string }[]
}

export const generateSitemap = (
  siteUrl: string,
  entries: SitemapEntry[],
  ignorePatterns: string[],
  changefreq: string,
): string => {
  const ignored = ignorePatterns.map(globToRegExp)
  const urls = entries
    .filter((entry) => !ignored.some((re) => re.test(entry.route)))
    .sort((a, b) => a.route.localeCompare(b.route))
    .map((entry) => {
      const lastmod = entry.lastUpdated
        ? `<lastmod>${new Date(entry.lastUpdated * 1000).toISOString()}</lastmod>`
        : ''
      const links = (entry.alternates ?? [])
        .map(
          (alternate) =>
            `<xhtml:link rel="alternate" hreflang="${escapeXml(alternate.hreflang)}" href="${escapeXml(siteUrl + alternate.route)}"/>`,
        )
        .join('')
      return `<url><loc>${escapeXml(siteUrl + entry.route)}</loc>${links}${lastmod}<changefreq>${changefreq}</changefreq></url>`
    })
  // The xhtml namespace only when a page has translations: other sitemaps stay as they were.
  const xhtml = entries.some((entry) => entry.alternates?.length)
    ? ' xmlns:xhtml="http://www.w3.org/1999/xhtml"'
    : ''
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${xhtml}>${urls.join('')}</urlset>\n`
}
