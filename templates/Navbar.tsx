// Top navigation: logo, guide links, external links, colour-mode toggle.
import type { SiteModel } from './model.ts'

const isActive = (route: string, to: string | undefined) =>
  !!to && to !== '/' && route.startsWith(to)

/** The search box; its script loads on first focus (Ctrl+K or Cmd+K focuses it). */
function SearchBox({ context }: { context: string }) {
  return (
    <search className="navbar-search" data-context={context} data-state="not-loaded">
      <input
        id="docs-search"
        type="text"
        role="combobox"
        aria-label="Search the documentation"
        aria-expanded="false"
        aria-controls="docs-search-listbox"
        aria-autocomplete="list"
        autoComplete="off"
        placeholder="Search (Ctrl+K)"
      />
      <button type="button" className="navbar-search__clear" aria-label="Clear the search" hidden>
        ×
      </button>
      <div className="navbar-search__panel" hidden>
        <div id="docs-search-listbox" role="listbox" aria-label="Search suggestions" />
        <p className="navbar-search__status" aria-live="polite" />
        <a className="navbar-search__footer" href="/">
          See all results
        </a>
      </div>
    </search>
  )
}

export function Navbar({ site, route }: { site: SiteModel; route: string }) {
  const { config } = site
  const items = config.navbar.items
  const renderItem = (item: (typeof items)[number]) => {
    const external = !item.to
    const active = isActive(route, item.to)
    return (
      <li key={item.label}>
        <a
          className={active ? 'navbar__link navbar__link--active' : 'navbar__link'}
          href={item.to ?? item.href}
          aria-current={item.to === route ? 'page' : undefined}
          {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
        >
          {item.label}
        </a>
      </li>
    )
  }
  return (
    <nav className="navbar" aria-label="Main">
      <div className="navbar__inner">
        <a className="navbar__brand" href={config.logo.href ?? config.baseUrl}>
          <img src={config.logo.src} alt={config.logo.alt} width="32" height="32" />
          <span className="navbar__title">{config.title}</span>
        </a>
        <ul className="navbar__items">
          {items.filter((i) => i.position === 'left').map(renderItem)}
        </ul>
        <SearchBox context={route.slice(config.baseUrl.length).split('/')[0]} />
        <ul className="navbar__items navbar__items--right">
          {items.filter((i) => i.position === 'right').map(renderItem)}
          {config.colorMode.disableSwitch ? null : (
            <li>
              <button
                type="button"
                className="color-mode-toggle"
                aria-label="Switch colour mode"
                title="Switch colour mode"
              >
                <span aria-hidden="true" className="color-mode-toggle__icon" />
              </button>
            </li>
          )}
        </ul>
      </div>
    </nav>
  )
}
