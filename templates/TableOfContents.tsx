// Table of contents of the page's headings, nested by level.
import type { TocItem } from './model.ts'

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

function List({ nodes }: { nodes: Node[] }) {
  return (
    <ul>
      {nodes.map((node) => (
        <li key={node.id}>
          <a href={`#${node.id}`} className="toc__link">
            {node.text}
          </a>
          {node.children.length ? <List nodes={node.children} /> : null}
        </li>
      ))}
    </ul>
  )
}

export function TableOfContents({ items }: { items: TocItem[] }) {
  if (items.length === 0) return null
  return (
    <nav className="toc" aria-label="On this page">
      <h2 className="toc__title">On this page</h2>
      <List nodes={nest(items)} />
    </nav>
  )
}
