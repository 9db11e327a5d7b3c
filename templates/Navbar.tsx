// Top navigation (an island): logo, guide links, search, version and language dropdowns, the
// colour-mode toggle, and on mobile the menu button and slide-out menu. On desktop the links
// that do not fit on the row move into a "More" menu (navbar-overflow.ts). It hides while the
// reader scrolls down past its own height and comes back on scroll up.
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react'
import type { PageVariants } from '../model/site-model.ts'
import { variantOf } from '../model/variants.ts'
import { Brand } from './Brand.tsx'
import { ColorModeToggle } from './ColorModeToggle.tsx'
import { Dropdown } from './Dropdown.tsx'
import { MobileMenu } from './MobileMenu.tsx'
import { NavLink } from './nav-links.tsx'
import { useCollapsedCount } from './navbar-overflow.ts'
import { type PageLocation, usePageLocation } from './route-store.ts'
import { SearchBox } from './SearchBox.tsx'
import { useSite } from './SiteContext.tsx'
import { storage } from './storage.ts'
import { useSiteText, useStrings } from './strings.ts'
import { useHydrated } from './use-hydrated.ts'

export const PREFERRED_VERSION_KEY = 'docs-preferred-version-default'

const useHideOnScroll = (enabled: boolean, nav: RefObject<HTMLElement | null>): boolean => {
  const [hidden, setHidden] = useState(false)
  useEffect(() => {
    setHidden(false)
    if (!enabled) return
    let last = scrollY
    const onScroll = () => {
      const y = scrollY
      const height = nav.current?.offsetHeight ?? 0
      const busy = nav.current?.contains(document.activeElement)
      if (y <= height || busy) setHidden(false)
      else if (y > last) setHidden(true)
      else if (y < last) setHidden(false)
      last = y
    }
    // Focus inside the navbar (Ctrl+K, Tab) brings it back.
    const onFocus = () => setHidden(false)
    const el = nav.current
    addEventListener('scroll', onScroll, { passive: true })
    el?.addEventListener('focusin', onFocus)
    return () => {
      removeEventListener('scroll', onScroll)
      el?.removeEventListener('focusin', onFocus)
    }
  }, [enabled, nav])
  return hidden
}

function VersionDropdown({ variants }: { variants?: PageVariants }) {
  const { config } = useSite()
  const hydrated = useHydrated()
  const preferred = hydrated ? storage.get(PREFERRED_VERSION_KEY) : null
  const known = config.versions.find((v) => v.name === preferred)
  if (preferred && !known && !variants)
    console.error(`Unknown docs version "${preferred}" in localStorage; showing the current one.`)
  // With versions, the page's own version is shown and each entry is this page in that version.
  const current = variants
    ? config.versions.find((v) => v.name === variants.version)!
    : (known ?? config.versions[0])
  return (
    <Dropdown
      id="version-dropdown"
      label={current.label}
      items={config.versions.map((version, i) => ({
        label: version.label,
        href: variants?.versions[i]?.href ?? `${config.baseUrl}${version.path ?? version.name}`,
        current: version.name === current.name,
        onSelect: () => storage.set(PREFERRED_VERSION_KEY, version.name),
      }))}
    />
  )
}

function LocaleDropdown({ route, variants }: { route: string; variants?: PageVariants }) {
  const { locales } = useSite().config
  const code = variants?.locale ?? locales.default
  const current = locales.items.find((l) => l.code === code) ?? locales.items[0]
  return (
    <Dropdown
      id="locale-dropdown"
      label={current.label}
      items={locales.items.map((locale, i) => ({
        label: locale.label,
        href: variants?.locales[i]?.href ?? route,
        lang: locale.code,
        current: locale.code === current.code,
      }))}
    />
  )
}

export function Navbar(rendered: PageLocation) {
  const { config } = useSite()
  const page = usePageLocation(rendered)
  const [menuOpen, setMenuOpen] = useState(false)
  const nav = useRef<HTMLElement>(null)
  const toggle = useRef<HTMLButtonElement>(null)
  const hidden = useHideOnScroll(config.navbar.hideOnScroll && !menuOpen, nav)
  const closeMenu = useCallback(() => {
    setMenuOpen(false)
    toggle.current?.focus()
  }, [])
  // A navigation (from a menu link or elsewhere) closes the menu.
  useEffect(() => setMenuOpen(false), [page.route])

  const t = useStrings(page.route)
  const text = useSiteText(page.route)
  const context = page.route.slice(variantOf(config, page.route).base.length).split('/')[0]
  const items = config.navbar.items
  const left = items.filter((i) => i.position === 'left')
  const right = items.filter((i) => i.position === 'right')
  // Outside links go into "More" first, then the guides, each list from its end.
  const order = [...right].reverse().concat([...left].reverse())
  const row = useRef<HTMLDivElement>(null)
  const leftList = useRef<HTMLUListElement>(null)
  const rightList = useRef<HTMLUListElement>(null)
  const collapsed = useCollapsedCount(order.length, row, [leftList, rightList])
  const moved = new Set(order.slice(0, collapsed))
  const links = (list: typeof items) =>
    list
      .filter((item) => !moved.has(item))
      .map((item) => (
        <li key={item.label}>
          <NavLink item={item} route={page.route} className="navbar__link" />
        </li>
      ))
  return (
    <nav
      ref={nav}
      className={hidden ? 'navbar navbar--hidden' : 'navbar'}
      aria-label={t('navbar.label')}
    >
      <div className="navbar__inner" ref={row}>
        <button
          ref={toggle}
          type="button"
          className="navbar__toggle"
          aria-label={t('navbar.openMenu')}
          aria-expanded={menuOpen}
          aria-controls="navbar-sidebar"
          onClick={() => setMenuOpen(true)}
        >
          <span aria-hidden="true">☰</span>
        </button>
        <Brand />
        <ul className="navbar__items navbar__links" ref={leftList}>
          {links(left)}
        </ul>
        {moved.size ? (
          <div className="navbar__more">
            <Dropdown
              id="navbar-more"
              label={t('navbar.more')}
              items={items
                .filter((item) => moved.has(item))
                .map((item) => ({
                  label: text(item.label),
                  href: item.to ?? item.href ?? '',
                  current: !!item.to && item.to === page.route,
                  external: !item.to,
                }))}
            />
          </div>
        ) : null}
        <SearchBox context={context} route={page.route} />
        <ul className="navbar__items navbar__links navbar__items--right" ref={rightList}>
          {links(right)}
        </ul>
        <ul className="navbar__items navbar__controls">
          <li>
            <VersionDropdown variants={page.variants} />
          </li>
          <li>
            <LocaleDropdown route={page.route} variants={page.variants} />
          </li>
        </ul>
        {config.colorMode.disableSwitch ? null : <ColorModeToggle />}
      </div>
      {menuOpen ? <MobileMenu page={page} onClose={closeMenu} /> : null}
    </nav>
  )
}
