// The landing page at the base URL: a short welcome and one card per guide.
import type { ClientPage, SiteModel } from '../model/site-model.ts'
import { variantOf } from '../model/variants.ts'

export function LandingPage({ site, page }: { site: SiteModel; page: ClientPage }) {
  const { config } = site
  // A locale's landing page links to its own guides, with their labels in its language.
  const variant = variantOf(config, page.route)
  const translated = variant.archived
    ? undefined
    : config.locales.items.find((item) => item.code === variant.locale)
  const tagline = page.description || config.tagline
  return (
    <main id="main-content" className="landing" tabIndex={-1}>
      <header className="landing__hero">
        <h1>{page.title}</h1>
        {tagline ? <p className="landing__tagline">{tagline}</p> : null}
      </header>
      <ul className="landing__guides">
        {config.guides
          .map(({ id, ...english }) => ({ id, ...english, ...translated?.guides?.[id] }))
          .map((guide) => (
            <li key={guide.id}>
              <a className="guide-card" href={`${variant.base}${guide.id}/`}>
                <h2>{guide.label}</h2>
                {guide.description ? <p>{guide.description}</p> : null}
              </a>
            </li>
          ))}
      </ul>
    </main>
  )
}
