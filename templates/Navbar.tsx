// Top navigation (an island): logo, guide links, search, version and language dropdowns, the
// colour-mode toggle, and on mobile the menu button and slide-out menu. It hides while the
// reader scrolls down past its own height and comes back on scroll up.
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react'
import { Brand } from './Brand.tsx'
import { ColorModeToggle } from './ColorModeToggle.tsx'
import { Dropdown } from './Dropdown.tsx'
import { MobileMenu } from './MobileMenu.tsx'
import { NavLink } from './nav-links.tsx'
import { type PageLocation, usePageLocation } from './route-store.ts'
import { SearchBox } from './SearchBox.tsx'
import { useSite } from './SiteContext.tsx'
import { storage } from './storage.ts'
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

function VersionDropdown() {
  const { config } = useSite()
  const hydrated = useHydrated()
  const preferred = hydrated ? storage.get(PREFERRED_VERSION_KEY) : null
  const known = config.versions.find((v) => v.name === preferred)
  if (preferred && !known)
    console.error(`Unknown docs version "${preferred}" in localStorage; showing the current one.`)
  const current = known ?? config.versions[0]
  return (
    <Dropdown
      id="version-dropdown"
      label={current.label}
      items={config.versions.map((version) => ({
        label: version.label,
        href: `${config.baseUrl}${version.path}`,
        current: version.name === current.name,
        onSelect: () => storage.set(PREFERRED_VERSION_KEY, version.name),
      }))}
    />
  )
}

function LocaleDropdown({ route }: { route: string }) {
  const { locales } = useSite().config
  const current = locales.items.find((l) => l.code === locales.default) ?? locales.items[0]
  return (
    <Dropdown
      id="locale-dropdown"
      label={current.label}
      items={locales.items.map((locale) => ({
        label: locale.label,
        href: route,
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

  const items = config.navbar.items
  const context = page.route.slice(config.baseUrl.length).split('/')[0]
  return (
    <nav ref={nav} className={hidden ? 'navbar navbar--hidden' : 'navbar'} aria-label="Main">
      <div className="navbar__inner">
        <button
          ref={toggle}
          type="button"
          className="navbar__toggle"
          aria-label="Open the navigation menu"
          aria-expanded={menuOpen}
          aria-controls="navbar-sidebar"
          onClick={() => setMenuOpen(true)}
        >
          <span aria-hidden="true">☰</span>
        </button>
        <Brand />
        <ul className="navbar__items">
          {items
            .filter((i) => i.position === 'left')
            .map((item) => (
              <li key={item.label}>
                <NavLink item={item} route={page.route} className="navbar__link" />
              </li>
            ))}
        </ul>
        <SearchBox context={context} />
        <ul className="navbar__items navbar__items--right">
          {items
            .filter((i) => i.position === 'right')
            .map((item) => (
              <li key={item.label}>
                <NavLink item={item} route={page.route} className="navbar__link" />
              </li>
            ))}
          <li>
            <VersionDropdown />
          </li>
          <li>
            <LocaleDropdown route={page.route} />
          </li>
        </ul>
        {config.colorMode.disableSwitch ? null : <ColorModeToggle />}
      </div>
      {menuOpen ? <MobileMenu page={page} onClose={closeMenu} /> : null}
    </nav>
  )
}
