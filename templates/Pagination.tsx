// Previous and next pages in the sidebar's reading order.
import type { PageLink } from '../model/site-model.ts'
import type { Strings } from './strings.ts'

export function Pagination({
  previous,
  next,
  t,
}: {
  previous?: PageLink
  next?: PageLink
  t: Strings
}) {
  if (!previous && !next) return null
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      {previous ? (
        <a className="pagination__link pagination__link--prev" href={previous.href} rel="prev">
          <span className="pagination__sub">{t('pagination.previous')}</span>
          <span className="pagination__label">{previous.label}</span>
        </a>
      ) : (
        <span />
      )}
      {next ? (
        <a className="pagination__link pagination__link--next" href={next.href} rel="next">
          <span className="pagination__sub">{t('pagination.next')}</span>
          <span className="pagination__label">{next.label}</span>
        </a>
      ) : null}
    </nav>
  )
}
