// Navbar items as links: internal ones marked active below their route, external ones opened
// in a new tab. Labels are in the page's language when its strings translate them.
import type { SiteConfig } from '../model/site-config.ts'
import { useSiteText } from './strings.ts'

type NavbarItem = SiteConfig['navbar']['items'][number]

const isActive = (route: string, to: string | undefined) =>
  !!to && to !== '/' && route.startsWith(to)

export function NavLink({
  item,
  route,
  className,
}: {
  item: NavbarItem
  route: string
  className: string
}) {
  const active = isActive(route, item.to)
  const text = useSiteText(route)
  return (
    <a
      className={active ? `${className} ${className}--active` : className}
      href={item.to ?? item.href}
      aria-current={item.to === route ? 'page' : undefined}
      {...(item.to ? {} : { target: '_blank', rel: 'noopener noreferrer' })}
    >
      {text(item.label)}
    </a>
  )
}
