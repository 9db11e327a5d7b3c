// Directive step: `:::note|tip|info|warning|danger [title]` containers become admonition boxes.
import type { ContainerDirective } from 'mdast-util-directive'
import { asElement, takeContainerLabel } from './directive-attributes.ts'

export const ADMONITION_TYPES = ['note', 'tip', 'info', 'warning', 'danger'] as const

const DEFAULT_TITLES: Record<string, string> = {
  note: 'Note',
  tip: 'Tip',
  info: 'Info',
  warning: 'Warning',
  danger: 'Danger',
}

export const admonition = (node: ContainerDirective): void => {
  const label = takeContainerLabel(node)
  const title = {
    type: 'paragraph' as const,
    children: label ?? [{ type: 'text' as const, value: DEFAULT_TITLES[node.name] }],
    data: { hName: 'div', hProperties: { className: ['admonition__title'] } },
  }
  const body = {
    type: 'blockquote' as const,
    children: node.children,
    data: { hName: 'div', hProperties: { className: ['admonition__body'] } },
  }
  node.children = [title, body] as typeof node.children
  asElement(node, 'aside', {
    className: ['admonition', `admonition--${node.name}`],
    role: 'note',
  })
}
