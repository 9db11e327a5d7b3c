// Per-guide sidebar: links and collapsible categories (native <details>, so it works without
// JavaScript); the categories on the way to the current page start open.
import { renderToStaticMarkup } from 'react-dom/server'
import type { SidebarItem } from './model.ts'

type Category = Extract<SidebarItem, { type: 'category' }>

const contains = (item: SidebarItem, route: string): boolean =>
  item.type === 'link'
    ? item.href === route
    : item.href === route || item.items.some((child) => contains(child, route))

function MenuLink({ label, href, route }: { label: string; href: string; route: string }) {
  const current = href === route
  return (
    <a
      className={current ? 'menu__link menu__link--active' : 'menu__link'}
      href={href}
      aria-current={current ? 'page' : undefined}
    >
      {label}
    </a>
  )
}

function CategoryBody({ item, route }: { item: Category; route: string }) {
  const open = !item.collapsed || contains(item, route)
  return (
    <details open={open || undefined}>
      <summary className="menu__category">
        {item.href ? (
          <MenuLink label={item.label} href={item.href} route={route} />
        ) : (
          <span className="menu__link">{item.label}</span>
        )}
      </summary>
      <Items items={item.items} route={route} />
    </details>
  )
}

/**
 * A category away from the current page renders the same on every page of its sidebar, so
 * its markup is made once per sidebar tree (a rebuilt sidebar is a new tree, so no stale entry).
 */
const idleMarkup = new WeakMap<Category, string>()
const markupAwayFromPage = (item: Category): string => {
  let markup = idleMarkup.get(item)
  if (markup === undefined) {
    markup = renderToStaticMarkup(<CategoryBody item={item} route="" />)
    idleMarkup.set(item, markup)
  }
  return markup
}

function Items({ items, route }: { items: SidebarItem[]; route: string }) {
  return (
    <ul className="menu__list">
      {items.map((item) => {
        if (item.type === 'link')
          return (
            <li key={item.href} className="menu__item">
              <MenuLink label={item.label} href={item.href} route={route} />
            </li>
          )
        const key = `${item.label}:${item.href ?? ''}`
        const className = 'menu__item menu__item--category'
        if (!contains(item, route))
          return (
            <li
              key={key}
              className={className}
              dangerouslySetInnerHTML={{ __html: markupAwayFromPage(item) }}
            />
          )
        return (
          <li key={key} className={className}>
            <CategoryBody item={item} route={route} />
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
