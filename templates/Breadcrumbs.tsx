// Breadcrumbs: home, the categories above the page, then the page itself.
import type { Crumb } from '../model/site-model.ts'
import type { Strings } from './strings.ts'

export function Breadcrumbs({
  home,
  crumbs,
  title,
  t,
}: {
  home: string
  crumbs: Crumb[]
  title: string
  t: Strings
}) {
  return (
    <nav className="breadcrumbs" aria-label={t('breadcrumbs.label')}>
      <ol>
        <li>
          <a href={home} aria-label={t('breadcrumbs.home')}>
            {t('breadcrumbs.homeText')}
          </a>
        </li>
        {crumbs.map((crumb) => (
          <li key={`${crumb.label}:${crumb.href ?? ''}`}>
            {crumb.href ? <a href={crumb.href}>{crumb.label}</a> : <span>{crumb.label}</span>}
          </li>
        ))}
        <li aria-current="page">
          <span>{title}</span>
        </li>
      </ol>
    </nav>
  )
}
