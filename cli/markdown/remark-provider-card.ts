// remark plugin: `::providerCard{icon=… title=… href=…}` becomes a linked card.
import type { Root, RootContent } from 'mdast'
import type { LeafDirective } from 'mdast-util-directive'
import type { VFile } from 'vfile'
import type { ReferenceResolver, StepContext } from './data.ts'
import { reportError } from './messages.ts'
import { resolveReference } from './references.ts'
import { walk } from './walk.ts'

const providerCard = (node: LeafDirective, ctx: StepContext): void => {
  const { file } = ctx
  const { icon, title, href } = node.attributes ?? {}
  if (!title || !href) {
    reportError(file, node, 'providerCard: needs title and href attributes')
    return
  }
  const url = resolveReference(file, node, href, ctx.resolveLink)
  const image = icon ? ctx.resolveImage(icon, file.path) : undefined
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
}

export interface Options {
  resolveLink: ReferenceResolver
  resolveImage: ReferenceResolver
}

export default function remarkProviderCard(options: Options) {
  return (tree: Root, file: VFile) => {
    const ctx: StepContext = { file, ...options }
    walk<RootContent>(tree, (node) => {
      if (node.type === 'leafDirective' && node.name === 'providerCard') providerCard(node, ctx)
    })
  }
}
