// Per-guide sidebar: links and collapsible categories. Categories are native <details>, so
// they work without JavaScript; hydrated, they open and close with a height animation. The
// categories on the way to the current page start open. A large sidebar is not repeated in
// every page: its HTML holds the categories on the way to the page with their items, and only
// the titles of the others; the browser fills those in from the sidebar's JSON file, fetched
// once and cached (templates/sidebar-data.ts).
import { createContext, type MouseEvent, useContext, useEffect, useRef, useState } from 'react'
import { animateHeight } from './collapse.ts'
import type { SidebarItem } from './model.ts'
import { useSite } from './SiteContext.tsx'
import { useHydrated } from './use-hydrated.ts'

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

/** Above this many entries, pages carry only the part of the sidebar around them. */
export const FULL_SIDEBAR_LIMIT = 150

const countItems = (items: SidebarItem[]): number =>
  items.reduce((n, item) => n + 1 + (item.type === 'category' ? countItems(item.items) : 0), 0)

const largeSidebars = new WeakMap<SidebarItem[], boolean>()

/** Whether pages leave out the categories away from them (the same answer in both renders). */
export const isLargeSidebar = (items: SidebarItem[]): boolean => {
  let large = largeSidebars.get(items)
  if (large === undefined) {
    large = countItems(items) > FULL_SIDEBAR_LIMIT
    largeSidebars.set(items, large)
  }
  return large
}

/** Set while rendering a large sidebar's first render: categories away from the page stay empty. */
const Trimmed = createContext(false)

export function CategoryBody({ item, route }: { item: Category; route: string }) {
  const onPath = contains(item, route)
  const trimmed = useContext(Trimmed) && !onPath
  const [open, setOpen] = useState(!item.collapsed || onPath)
  const details = useRef<HTMLDetailsElement>(null)
  const body = useRef<HTMLDivElement>(null)
  const animating = useRef(false)

  // Client navigation to a page inside a closed category opens it.
  useEffect(() => {
    if (onPath) setOpen(true)
  }, [onPath])

  const toggle = (expand: boolean) => {
    const el = body.current
    if (!el || !details.current || animating.current) return
    animating.current = true
    if (expand) {
      details.current.open = true
      setOpen(true)
    }
    animateHeight(el, expand, () => {
      animating.current = false
      if (!expand) setOpen(false)
    })
  }

  const onSummaryClick = (event: MouseEvent) => {
    // The category's own link navigates (and opens the category); the rest of the row toggles.
    if ((event.target as Element).closest('a')) {
      if (!open) toggle(true)
      return
    }
    event.preventDefault()
    toggle(!open)
  }

  return (
    <details open={open || undefined} ref={details}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: <summary> is the native disclosure control */}
      <summary className="menu__category" onClick={onSummaryClick}>
        {item.href ? (
          <MenuLink label={item.label} href={item.href} route={route} />
        ) : (
          <span className="menu__link">{item.label}</span>
        )}
      </summary>
      {trimmed ? null : (
        <div className="menu__collapsible" ref={body}>
          <SidebarItems items={item.items} route={route} />
        </div>
      )}
    </details>
  )
}

/**
 * A category away from the current page renders the same on every page of its sidebar, so the
 * build renders its markup once (templates/render.tsx provides this); the browser renders the
 * component itself, which yields the same markup to hydrate.
 */
export const IdleCategoryMarkup = createContext<((item: Category) => string) | null>(null)

export function SidebarItems({ items, route }: { items: SidebarItem[]; route: string }) {
  const idleMarkup = useContext(IdleCategoryMarkup)
  const trimmed = useContext(Trimmed)
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
        if (idleMarkup && !trimmed && !contains(item, route))
          return (
            <li
              key={key}
              className={className}
              dangerouslySetInnerHTML={{ __html: idleMarkup(item) }}
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

export function Sidebar({ sidebarId, route }: { sidebarId: string; route: string }) {
  const items = useSite().sidebars[sidebarId] ?? []
  const hydrated = useHydrated()
  // Hydration renders what the server sent; the hidden categories fill in right after.
  const trimmed = isLargeSidebar(items) && !hydrated
  return (
    <nav className="sidebar" aria-label="Docs sidebar">
      <Trimmed.Provider value={trimmed}>
        <SidebarItems items={items} route={route} />
      </Trimmed.Provider>
    </nav>
  )
}
