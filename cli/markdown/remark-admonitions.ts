// remark plugin: `:::note|tip|info|warning|danger [title]` containers become admonition boxes,
// and `:::details [summary]` a collapsed one (native `<details>`, so it works without scripts).
import type { Root, RootContent } from 'mdast'
import type { ContainerDirective } from 'mdast-util-directive'
import { asElement, takeContainerLabel } from './directive-attributes.ts'
import { walk } from './walk.ts'

export const ADMONITION_TYPES = ['note', 'tip', 'info', 'warning', 'danger'] as const

const DEFAULT_TITLES: Record<string, string> = {
  note: 'Note',
  tip: 'Tip',
  info: 'Info',
  warning: 'Warning',
  danger: 'Danger',
}

/** A box: its title (the label, or `fallback`) in `titleTag`, then its content. */
const box = (node: ContainerDirective, titleTag: string, fallback: string): void => {
  const label = takeContainerLabel(node)
  const title = {
    type: 'paragraph' as const,
    children: label ?? [{ type: 'text' as const, value: fallback }],
    data: { hName: titleTag, hProperties: { className: ['admonition__title'] } },
  }
  const body = {
    type: 'blockquote' as const,
    children: node.children,
    data: { hName: 'div', hProperties: { className: ['admonition__body'] } },
  }
  node.children = [title, body] as typeof node.children
}

const admonition = (node: ContainerDirective): void => {
  box(node, 'div', DEFAULT_TITLES[node.name])
  asElement(node, 'aside', {
    className: ['admonition', `admonition--${node.name}`],
    role: 'note',
  })
}

const details = (node: ContainerDirective): void => {
  box(node, 'summary', 'Details')
  asElement(node, 'details', { className: ['admonition', 'admonition--details'] })
}

const TYPES = new Set<string>(ADMONITION_TYPES)

export default function remarkAdmonitions() {
  return (tree: Root) => {
    walk<RootContent>(tree, (node) => {
      if (node.type !== 'containerDirective') return
      if (TYPES.has(node.name)) admonition(node)
      else if (node.name === 'details') details(node)
    })
  }
}
