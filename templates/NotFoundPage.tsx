// The not-found page, served for every unmatched path.
import type { SiteModel } from './model.ts'

export function NotFoundPage({ site }: { site: SiteModel }) {
  return (
    <main id="main-content" className="not-found" tabIndex={-1}>
      <h1>Page Not Found</h1>
      <p>We could not find what you were looking for.</p>
      <p>
        Go to the <a href={site.config.baseUrl}>documentation home</a> or pick a guide from the menu
        above.
      </p>
    </main>
  )
}
