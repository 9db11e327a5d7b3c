// Per-guide sidebar: links and collapsible categories (native <details>, so it works without
// JavaScript); the categories on the way to the current page start open.
import type { SidebarItem } from './model.ts'

const contains = (item: SidebarItem, route: string): boolean =>
  item.type === 'link'
    ? item.href === route
    : item.href === route || item.items.some((child) => contains(child, route))

function Items({ items, route }: { items: SidebarItem[]; route: string }) {
  return (
    <ul className="menu__list">
      {items.map((item) => {
        if (item.type === 'link') {
          const current = item.href === route
          return (
            <li key={item.href} className="menu__item">
              <a
                className={current ? 'menu__link menu__link--active' : 'menu__link'}
                href={item.href}
                aria-current={current ? 'page' : undefined}
              >
                {item.label}
              </a>
            </li>
          )
        }
        const current = item.href === route
        const open = !item.collapsed || contains(item, route)
        return (
          <li key={`${item.label}:${item.href ?? ''}`} className="menu__item menu__item--category">
            <details open={open || undefined}>
              <summary className="menu__category">
                {item.href ? (
                  <a
                    className={current ? 'menu__link menu__link--active' : 'menu__link'}
                    href={item.href}
                    aria-current={current ? 'page' : undefined}
                  >
                    {item.label}
                  </a>
                ) : (
                  <span className="menu__link">{item.label}</span>
                )}
              </summary>
              <Items items={item.items} route={route} />
            </details>
          </li>
        )
      })}
    </ul>
  )
}

export function Sidebar({ items, route }: { items: SidebarItem[]; route: string }) {
  return (
    <nav className="sidebar" aria-label="Docs sidebar">
      <Items items={items} route={route} />
    </nav>
  )
}
