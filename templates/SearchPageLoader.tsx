// The search results page's code loads on demand: a spinner while it loads; if it fails, the
// error and a Retry button that reloads the page.
import { useEffect, useRef, useState } from 'react'
import { useSite } from './SiteContext.tsx'

type State = { status: 'loading' } | { status: 'loaded' } | { status: 'failed'; error: Error }

export function SearchPageLoader() {
  const { assets } = useSite()
  const [state, setState] = useState<State>({ status: 'loading' })
  const anchor = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const page = anchor.current?.closest<HTMLElement>('.search-page')
    // Only a failure to load the code is a load failure; an error of the search itself (a bad
    // version parameter) is thrown as it is.
    import(/* the hashed entry of the search page */ assets.searchPage).then(
      (module: typeof import('./client/search-page.ts')) => {
        setState({ status: 'loaded' })
        if (page) module.initSearchPage(page)
      },
      (error: Error) => setState({ status: 'failed', error }),
    )
  }, [assets.searchPage])
  return (
    <div ref={anchor} className="page-loader">
      {state.status === 'loading' ? (
        <p role="status" className="page-loader__spinner">
          <span className="spinner" aria-hidden="true" />
          Loading the search…
        </p>
      ) : null}
      {state.status === 'failed' ? (
        <div role="alert" className="page-loader__error">
          <p>{String(state.error.message || state.error)}</p>
          <button type="button" onClick={() => location.reload()}>
            Retry
          </button>
        </div>
      ) : null}
    </div>
  )
}
