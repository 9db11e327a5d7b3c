// remark plugin: `:::quote{author=… source=…}` becomes a figure with a blockquote and caption.
import type { Root } from 'mdast'
import { visit } from 'unist-util-visit'
import { asElement, takeContainerLabel } from './directive-attributes.ts'

export default function remarkQuote() {
  return (tree: Root) => {
    visit(tree, 'containerDirective', (node) => {
      if (node.name !== 'quote') return
      takeContainerLabel(node)
      const { author, source } = node.attributes ?? {}
      const quote = { type: 'blockquote' as const, children: node.children }
      const caption = author || source
        ? [
            {
              type: 'paragraph' as const,
              children: [
                { type: 'text' as const, value: `— ${author ?? ''}${author && source ? ', ' : ''}` },
                ...(source
                  ? [{ type: 'emphasis' as const, children: [{ type: 'text' as const, value: source }], data: { hName: 'cite' } }]
                  : []),
              ],
              data: { hName: 'figcaption' },
            },
          ]
        : []
      node.children = [quote, ...caption] as typeof node.children
      asElement(node, 'figure', { className: ['quote'] })
    })
  }
}
