// The site config's own words that a locale's strings file may translate (the navbar's and the
// footer's), each under the key `site:<the English text>`. Pure: the build checks the files
// with it, the templates look the translations up.
import type { SiteConfig } from './site-config.ts'

/** The prefix of a strings file's keys that translate a text of the site config. */
export const SITE_TEXT_PREFIX = 'site:'

/** The site config's words a translation may give, each once. */
export const siteTexts = (config: SiteConfig): string[] => {
  const { navbar, footer } = config
  const texts = [
    ...navbar.items.map((item) => item.label),
    footer.slogan,
    ...footer.columns.flatMap((column) => [column.title, ...column.items.map((i) => i.label)]),
    ...footer.social.map((item) => item.label),
    footer.copyright,
  ]
  return [...new Set(texts.filter((text): text is string => !!text))]
}
