// The mobile slide-out menu (layout at 996 px and below): the primary menu (navbar items) and,
// on a guide's pages, a secondary menu with that guide's sidebar, shown first. Escape, the
// backdrop or the close button close it, and it closes itself when the layout turns desktop.
import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import { Brand } from './Brand.tsx'
import { ColorModeToggle } from './ColorModeToggle.tsx'
import { NavLink } from './nav-links.tsx'
import type { PageLocation } from './route-store.ts'
import { SidebarItems } from './Sidebar.tsx'
import { useSite } from './SiteContext.tsx'
import { useSidebarItems } from './sidebar-data.ts'
import { useStrings } from './strings.ts'

export const DESKTOP_QUERY = '(min-width: 997px)'

export function MobileMenu({ page, onClose }: { page: PageLocation; onClose: () => void }) {
  const { config } = useSite()
  const sidebar = useSidebarItems(page.sidebarId)
  const t = useStrings(page.route)
  const [secondary, setSecondary] = useState(true)
  const close = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    close.current?.focus()
    const desktop = matchMedia(DESKTOP_QUERY)
    const onChange = () => desktop.matches && onClose()
    desktop.addEventListener('change', onChange)
    // The window may have turned desktop-wide before this effect ran.
    onChange()
    const overflow = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    return () => {
      desktop.removeEventListener('change', onChange)
      document.body.style.overflow = overflow
    }
  }, [onClose])

  // A modal dialog: Escape closes it, and Tab cycles inside it.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') return onClose()
    if (event.key !== 'Tab') return
    const focusable = [
      ...event.currentTarget.querySelectorAll<HTMLElement>('a[href], button:not([disabled])'),
    ]
    const first = focusable[0]
    const last = focusable.at(-1)
    if (event.shiftKey && document.activeElement === first) {
      last?.focus()
      event.preventDefault()
    } else if (!event.shiftKey && document.activeElement === last) {
      first?.focus()
      event.preventDefault()
    }
  }
  const showSecondary = secondary && !!sidebar
  return (
    <>
      <div className="navbar-sidebar__backdrop" onClick={onClose} aria-hidden="true" />
      <div
        className="navbar-sidebar"
        id="navbar-sidebar"
        role="dialog"
        aria-modal="true"
        aria-label={t('navbar.menu')}
        onKeyDown={onKeyDown}
      >
        <div className="navbar-sidebar__brand">
          <Brand />
          <ColorModeToggle />
          <button
            ref={close}
            type="button"
            className="navbar-sidebar__close"
            aria-label={t('navbar.closeMenu')}
            onClick={onClose}
          >
            ×
          </button>
        </div>
        {showSecondary ? (
          <div className="navbar-sidebar__panel" data-panel="secondary">
            <button
              type="button"
              className="navbar-sidebar__back"
              onClick={() => setSecondary(false)}
            >
              ← Back to main menu
            </button>
            <SidebarItems items={sidebar} route={page.route} />
          </div>
        ) : (
          <div className="navbar-sidebar__panel" data-panel="primary">
            <ul className="menu__list">
              {config.navbar.items.map((item) => (
                <li key={item.label} className="menu__item">
                  <NavLink item={item} route={page.route} className="menu__link" />
                </li>
              ))}
            </ul>
            {sidebar ? (
              <button
                type="button"
                className="navbar-sidebar__back"
                onClick={() => setSecondary(true)}
              >
                This guide's menu →
              </button>
            ) : null}
          </div>
        )}
      </div>
    </>
  )
}
