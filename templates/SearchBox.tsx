// The navbar search box. Its behaviour (templates/client/search-ui.ts) loads on first focus
// and owns this markup from then on, so the navbar island never re-renders it.
import { memo } from 'react'

function SearchBoxMarkup({ context }: { context: string }) {
  return (
    <search className="navbar-search" data-context={context} data-state="not-loaded">
      <input
        id="docs-search"
        type="text"
        role="combobox"
        aria-label="Search the documentation"
        aria-expanded="false"
        aria-controls="docs-search-listbox"
        aria-autocomplete="list"
        autoComplete="off"
        placeholder="Search (Ctrl+K)"
      />
      <button type="button" className="navbar-search__clear" aria-label="Clear the search" hidden>
        ×
      </button>
      <div className="navbar-search__panel" hidden>
        <div id="docs-search-listbox" role="listbox" aria-label="Search suggestions" />
        <p className="navbar-search__status" aria-live="polite" />
        <a className="navbar-search__footer" href="/">
          See all results
        </a>
      </div>
    </search>
  )
}

export const SearchBox = memo(SearchBoxMarkup, () => true)
