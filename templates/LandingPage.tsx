// The landing page at the base URL: a short welcome and one card per guide.
import type { ClientPage, SiteModel } from './model.ts'

export function LandingPage({ site, page }: { site: SiteModel; page: ClientPage }) {
  const { config } = site
  return (
    <main id="main-content" className="landing" tabIndex={-1}>
      <header className="landing__hero">
        <h1>{page.title}</h1>
        {config.tagline ? <p className="landing__tagline">{config.tagline}</p> : null}
      </header>
      <ul className="landing__guides">
        {config.guides.map((guide) => (
          <li key={guide.id}>
            <a className="guide-card" href={`${config.baseUrl}${guide.id}/`}>
              <h2>{guide.label}</h2>
              {guide.description ? <p>{guide.description}</p> : null}
            </a>
          </li>
        ))}
      </ul>
    </main>
  )
}
