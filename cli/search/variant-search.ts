// The search indexes of a site's locales and archived versions: one per variant, named in the
// same manifest as the current docs' index, so the results a reader gets are in the language
// and version of the page searched from. Made in this thread from the pages' sections (the
// worker keeps the default index, which the dev server updates edit by edit).
import { searchIndexName, variantsOf } from '../../model/variants.ts'
import type { SiteDocs } from '../content/site-docs.ts'
import { SEARCH_DIR, type SearchFiles, SearchIndex } from './search-index.ts'

/** The files to write: the variants' indexes, then the default one, under one manifest. */
export const variantSearch = (site: SiteDocs, main: SearchFiles): SearchFiles[] => {
  const config = site.config.site
  const files = new Map<string, string>()
  const versions = { ...main.manifest.versions }
  for (const variant of variantsOf(config).slice(1)) {
    const index = new SearchIndex({
      baseUrl: variant.base,
      version: searchIndexName(config, variant),
      // The ignore patterns name routes of the default docs: the same pages in each variant.
      ignore: config.search.ignorePatterns.map((pattern) =>
        pattern.startsWith(config.baseUrl)
          ? `${variant.base}${pattern.slice(config.baseUrl.length)}`
          : pattern,
      ),
    })
    index.setPages(site.searchablePages(undefined, variant.key))
    const made = index.files()
    for (const [name, content] of made.files) files.set(name, content)
    // Every index's files are in the one folder below the base URL.
    for (const [name, url] of Object.entries(made.manifest.versions))
      versions[name] = `${config.baseUrl}${SEARCH_DIR}/${url.slice(url.lastIndexOf('/') + 1)}`
  }
  const manifest = { versions }
  return [
    { files, manifest },
    { ...main, manifest },
  ]
}
