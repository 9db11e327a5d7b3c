// remark plugin: `::providerCard{icon=… title=… href=…}` becomes a linked card.
import type { Root } from 'mdast'
import { visit } from 'unist-util-visit'
import type { VFile } from 'vfile'
import type { ReferenceResolver } from './data.ts'
import { reportError } from './messages.ts'
import { resolveReference } from './remark-links.ts'

export interface Options {
  resolveLink: ReferenceResolver
  resolveImage: ReferenceResolver
}

export default function remarkProviderCard(options: Options) {
  return (tree: Root, file: VFile) => {
    visit(tree, 'leafDirective', (node) => {
      if (node.name !== 'providerCard') return
      const { icon, title, href } = node.attributes ?? {}
      if (!title || !href) {
        reportError(file, node, 'providerCard: needs title and href attributes')
        return
      }
      const url = resolveReference(file, node, href, options.resolveLink)
      const image = icon ? options.resolveImage(icon, file.path) : undefined
      if (image && 'error' in image) reportError(file, node, image.error)
      node.children = []
      node.data = {
        hName: 'a',
        hProperties: { className: ['provider-card'], href: url ?? href },
        hChildren: [
          ...(image && 'url' in image
            ? [
                {
                  type: 'element' as const,
                  tagName: 'img',
                  properties: { src: image.url, alt: '', width: 48, height: 48, loading: 'lazy' },
                  children: [],
                },
              ]
            : []),
          {
            type: 'element' as const,
            tagName: 'span',
            properties: { className: ['provider-card__title'] },
            children: [{ type: 'text' as const, value: title }],
          },
        ],
      }
    })
  }
}
