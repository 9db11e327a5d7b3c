// The not-found page, served for every unmatched path.
import type { SiteModel } from '../model/site-model.ts'
import { variantOf } from '../model/variants.ts'
import { stringsFor } from './strings.ts'

export function NotFoundPage({ site, route }: { site: SiteModel; route: string }) {
  const t = stringsFor(site.config, route)
  return (
    <main id="main-content" className="not-found" tabIndex={-1}>
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <p>
        {t('notFound.before')}
        <a href={variantOf(site.config, route).base}>{t('notFound.home')}</a>
        {t('notFound.after')}
      </p>
    </main>
  )
}
