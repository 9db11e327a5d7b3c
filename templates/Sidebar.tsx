// Per-guide sidebar: links and collapsible categories. Categories are native <details>, so
// they work without JavaScript; hydrated, they open and close with a height animation. The
// categories on the way to the current page start open. A large sidebar is not repeated in
// every page: its HTML holds the categories on the way to the page with their items, and only
// the titles of the others; the browser fills those in from the sidebar's JSON file, fetched
// once and cached (templates/sidebar-data.ts).
import { createContext, type MouseEvent, useContext, useEffect, useRef, useState } from 'react'
import type { SidebarItem } from '../model/site-model.ts'
import { animateHeight } from './collapse.ts'
import { useSite } from './SiteContext.tsx'
import { useStrings } from './strings.ts'
import { useHydrated } from './use-hydrated.ts'

type Category = Extract<SidebarItem, { type: 'category' }>

const contains = (item: SidebarItem, route: string): boolean =>
  item.type === 'link'
    ? item.href === route
    : item.href === route || item.items.some((child) => contains(child, route))

function MenuLink({
  label,
  href,
  route,
  onClick,
}: {
  label: string
  href: string
  route: string
  onClick?: () => void
}) {
  const current = href === route
  return (
    <a
      className={current ? 'menu__link menu__link--active' : 'menu__link'}
      href={href}
      aria-current={current ? 'page' : undefined}
      onClick={onClick}
    >
      {label}
    </a>
  )
}

/**
 * Whether a category leads anywhere: to its own page or to a page inside it. One with neither
 * (a configured category left with no items, or holding only such categories) is not shown.
 */
const leadsSomewhere = (item: SidebarItem): boolean =>
  item.type === 'link' || !!item.href || item.items.some(leadsSomewhere)

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
  /** The animation under way: its direction, and how to end it so another can take over. */
  const running = useRef<{ expand: boolean; stop: () => void } | null>(null)

  // Client navigation to a page inside a closed category opens it.
  useEffect(() => {
    if (onPath) setOpen(true)
  }, [onPath])

  const toggle = (expand: boolean) => {
    const el = body.current
    if (!el || !details.current) return
    // A click while the category moves turns it back, from the height it has reached.
    running.current?.stop()
    if (expand) {
      details.current.open = true
      setOpen(true)
    }
    const stop = animateHeight(el, expand, () => {
      running.current = null
      if (!expand) setOpen(false)
    })
    running.current = { expand, stop }
  }

  const onSummaryClick = (event: MouseEvent) => {
    event.preventDefault()
    toggle(running.current ? !running.current.expand : !open)
  }

  // A category with a page of its own shows its link beside the <summary>, not inside it: a
  // link inside the disclosure control would be a control within a control, which screen
  // readers announce badly (axe: nested-interactive). The summary, laid over the row's end,
  // then only opens and closes, and is named after the category.
  return (
    <>
      {item.href ? (
        <MenuLink
          label={item.label}
          href={item.href}
          route={route}
          onClick={() => open || toggle(true)}
        />
      ) : null}
      <details open={open || undefined} ref={details}>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: <summary> is the native disclosure control */}
        <summary
          className={item.href ? 'menu__category menu__category--beside' : 'menu__category'}
          onClick={onSummaryClick}
        >
          {item.href ? (
            <span className="sr-only">{item.label}</span>
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
    </>
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
      {items.filter(leadsSomewhere).map((item) => {
        // A category with a page but nothing under it is a plain link: no control to open.
        if (item.type === 'link' || !item.items.some(leadsSomewhere))
          return (
            <li key={item.href} className="menu__item">
              <MenuLink label={item.label} href={item.href ?? ''} route={route} />
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
  const t = useStrings(route)
  // Hydration renders what the server sent; the hidden categories fill in right after.
  const trimmed = isLargeSidebar(items) && !hydrated
  return (
    <nav className="sidebar" aria-label={t('sidebar.label')}>
      <Trimmed.Provider value={trimmed}>
        <SidebarItems items={items} route={route} />
      </Trimmed.Provider>
    </nav>
  )
}
