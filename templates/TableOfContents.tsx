// Table of contents of the page's headings (levels 2 and 3), nested by level. Hydrated, it
// marks the heading the reader is at: the last one that has scrolled past the navbar.
import { useEffect, useState } from 'react'
import type { TocItem } from '../model/site-model.ts'
import { useStrings } from './strings.ts'

interface Node extends TocItem {
  children: Node[]
}

const nest = (items: TocItem[]): Node[] => {
  const roots: Node[] = []
  const stack: Node[] = []
  for (const item of items) {
    const node: Node = { ...item, children: [] }
    while (stack.length && stack.at(-1)!.level >= item.level) stack.pop()
    ;(stack.length ? stack.at(-1)!.children : roots).push(node)
    stack.push(node)
  }
  return roots
}

/** The id of the heading in view, updated on scroll (one measurement per frame at most). */
const useActiveHeading = (items: TocItem[]): string | undefined => {
  const [active, setActive] = useState<string>()
  useEffect(() => {
    let frame = 0
    const measure = () => {
      frame = 0
      // The navbar's height whether or not it is hidden: headings land below it (scroll-margin).
      const navbar = document.querySelector<HTMLElement>('.navbar')?.offsetHeight ?? 0
      const top = navbar + 16
      const atBottom = innerHeight + scrollY >= document.documentElement.scrollHeight - 2
      let current: string | undefined
      for (const item of items) {
        const heading = document.getElementById(item.id)
        if (!heading) continue
        if (heading.getBoundingClientRect().top <= top) current = item.id
        else break
      }
      if (atBottom && items.length) current = items.at(-1)!.id
      setActive(current)
    }
    const schedule = () => {
      frame ||= requestAnimationFrame(measure)
    }
    measure()
    addEventListener('scroll', schedule, { passive: true })
    addEventListener('resize', schedule)
    return () => {
      removeEventListener('scroll', schedule)
      removeEventListener('resize', schedule)
      cancelAnimationFrame(frame)
    }
  }, [items])
  return active
}

function List({ nodes, active }: { nodes: Node[]; active?: string }) {
  return (
    <ul>
      {nodes.map((node) => (
        <li key={node.id}>
          <a
            href={`#${node.id}`}
            className={node.id === active ? 'toc__link toc__link--active' : 'toc__link'}
            aria-current={node.id === active ? 'location' : undefined}
          >
            {node.text}
          </a>
          {node.children.length ? <List nodes={node.children} active={active} /> : null}
        </li>
      ))}
    </ul>
  )
}

export function TableOfContents({ items, route }: { items: TocItem[]; route: string }) {
  const active = useActiveHeading(items)
  const t = useStrings(route)
  if (items.length === 0) return null
  return (
    <nav className="toc" aria-label={t('toc.title')}>
      <h2 className="toc__title">{t('toc.title')}</h2>
      <List nodes={nest(items)} active={active} />
    </nav>
  )
}
