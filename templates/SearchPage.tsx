// The search results page: a plain form (works without the navbar and without scripts, as a
// GET to this page); the client loads the search code and fills the results from the static
// index.

import type { SiteModel } from '../model/site-model.ts'
import { variantOf } from '../model/variants.ts'
import { Island } from './Island.tsx'
import { SearchPageLoader } from './SearchPageLoader.tsx'
import { stringsFor } from './strings.ts'

export function SearchPage({ site, route }: { site: SiteModel; route: string }) {
  const t = stringsFor(site.config, route)
  const base = variantOf(site.config, route).base
  return (
    <main id="main-content" className="search-page" tabIndex={-1}>
      <h1>{t('search.pageTitle')}</h1>
      <form className="search-page__form" action={`${base}search/`} method="get">
        <label htmlFor="search-page-input" className="sr-only">
          {t('search.submit')}
        </label>
        <input
          id="search-page-input"
          name="q"
          type="search"
          placeholder={t('search.pagePlaceholder')}
          autoComplete="off"
        />
        <button type="submit">{t('search.submit')}</button>
      </form>
      <Island name="search" props={{}}>
        <SearchPageLoader />
      </Island>
      <p className="search-page__status" aria-live="polite" />
      <div className="search-page__results" />
      <noscript>
        <p>{t('search.noScript')}</p>
      </noscript>
    </main>
  )
}
