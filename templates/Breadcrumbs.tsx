// Breadcrumbs: home, the categories above the page, then the page itself.
import type { Crumb } from './model.ts'

export function Breadcrumbs({
  home,
  crumbs,
  title,
}: {
  home: string
  crumbs: Crumb[]
  title: string
}) {
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumbs">
      <ol>
        <li>
          <a href={home} aria-label="Home page">
            Home
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
