// A navbar dropdown (version, language): a menu button with an ARIA menu of links. Enter,
// Space or the arrow keys open it, arrows move between items, Escape closes it and returns
// focus to the button, and leaving it with Tab or a click outside closes it.
import { type KeyboardEvent, useEffect, useRef, useState } from 'react'

export interface DropdownItem {
  label: string
  href: string
  current?: boolean
  /** Opens in a new tab, like the navbar's outside links. */
  external?: boolean
  /** The language of the page the item links to (a language menu). */
  lang?: string
  onSelect?: () => void
}

export function Dropdown({
  id,
  label,
  items,
}: {
  id: string
  label: string
  items: DropdownItem[]
}) {
  const [open, setOpen] = useState(false)
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const links = () => [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]

  useEffect(() => {
    if (!open) return
    const close = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', close)
    document.addEventListener('focusin', close)
    return () => {
      document.removeEventListener('pointerdown', close)
      document.removeEventListener('focusin', close)
    }
  }, [open])

  const openAndFocus = (which: 'first' | 'last') => {
    setOpen(true)
    requestAnimationFrame(() =>
      links()
        .at(which === 'first' ? 0 : -1)
        ?.focus(),
    )
  }

  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') openAndFocus('first')
    else if (event.key === 'ArrowUp') openAndFocus('last')
    else return
    event.preventDefault()
  }

  const onMenuKey = (event: KeyboardEvent) => {
    const all = links()
    const i = all.indexOf(document.activeElement as HTMLElement)
    const move: Record<string, number> = {
      ArrowDown: (i + 1) % all.length,
      ArrowUp: (i - 1 + all.length) % all.length,
      Home: 0,
      End: all.length - 1,
    }
    if (event.key in move) all[move[event.key]]?.focus()
    else if (event.key === 'Escape') {
      setOpen(false)
      button.current?.focus()
    } else return
    event.preventDefault()
  }

  return (
    <div className={open ? 'dropdown dropdown--open' : 'dropdown'} ref={root}>
      <button
        ref={button}
        type="button"
        className="navbar__link dropdown__button"
        id={`${id}-button`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={`${id}-menu`}
        onClick={(event) => {
          // Enter and Space arrive as a click without a pointer: open onto the first item.
          if (!open && event.detail === 0) openAndFocus('first')
          else setOpen(!open)
        }}
        onKeyDown={onButtonKey}
      >
        {label}
      </button>
      <div
        className="dropdown__menu"
        id={`${id}-menu`}
        role="menu"
        aria-labelledby={`${id}-button`}
        hidden={!open}
        onKeyDown={onMenuKey}
      >
        {items.map((item) => (
          <a
            key={item.href + item.label}
            role="menuitem"
            tabIndex={-1}
            className={item.current ? 'dropdown__link dropdown__link--active' : 'dropdown__link'}
            href={item.href}
            lang={item.lang}
            hrefLang={item.lang}
            aria-current={item.current ? 'page' : undefined}
            {...(item.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
            onClick={() => {
              item.onSelect?.()
              setOpen(false)
            }}
          >
            {item.label}
          </a>
        ))}
      </div>
    </div>
  )
}
