// remark plugin: `:::quote{author=… source=…}` becomes a figure with a blockquote and caption.
import type { Root, RootContent } from 'mdast'
import type { ContainerDirective } from 'mdast-util-directive'
import { asElement, takeContainerLabel } from './directive-attributes.ts'
import { walk } from './walk.ts'

const quote = (node: ContainerDirective): void => {
  takeContainerLabel(node)
  const { author, source } = node.attributes ?? {}
  const quote = { type: 'blockquote' as const, children: node.children }
  const caption =
    author || source
      ? [
          {
            type: 'paragraph' as const,
            children: [
              { type: 'text' as const, value: `— ${author ?? ''}${author && source ? ', ' : ''}` },
              ...(source
                ? [
                    {
                      type: 'emphasis' as const,
                      children: [{ type: 'text' as const, value: source }],
                      data: { hName: 'cite' },
                    },
                  ]
                : []),
            ],
            data: { hName: 'figcaption' },
          },
        ]
      : []
  node.children = [quote, ...caption] as typeof node.children
  asElement(node, 'figure', { className: ['quote'] })
}

export default function remarkQuote() {
  return (tree: Root) => {
    walk<RootContent>(tree, (node) => {
      if (node.type === 'containerDirective' && node.name === 'quote') quote(node)
    })
  }
}
