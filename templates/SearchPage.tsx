// The search results page: a plain form (works without the navbar and without scripts, as a
// GET to this page); the client loads the search code and fills the results from the static
// index.
import { Island } from './Island.tsx'
import type { SiteModel } from './model.ts'
import { SearchPageLoader } from './SearchPageLoader.tsx'

export function SearchPage({ site }: { site: SiteModel }) {
  return (
    <main id="main-content" className="search-page" tabIndex={-1}>
      <h1>Search the documentation</h1>
      <form className="search-page__form" action={`${site.config.baseUrl}search/`} method="get">
        <label htmlFor="search-page-input" className="sr-only">
          Search
        </label>
        <input
          id="search-page-input"
          name="q"
          type="search"
          placeholder="Type your search here"
          autoComplete="off"
        />
        <button type="submit">Search</button>
      </form>
      <Island name="search" props={{}}>
        <SearchPageLoader />
      </Island>
      <p className="search-page__status" aria-live="polite" />
      <div className="search-page__results" />
      <noscript>
        <p>Search runs in your browser and needs JavaScript.</p>
      </noscript>
    </main>
  )
}
