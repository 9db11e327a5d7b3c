// remark plugin: relative image paths become hashed asset URLs; images load lazily.
import type { Root } from 'mdast'
import { visit } from 'unist-util-visit'
import type { VFile } from 'vfile'
import type { ReferenceResolver } from './data.ts'
import { reportError } from './messages.ts'

export interface Options {
  resolveImage: ReferenceResolver
}

export default function remarkImages(options: Options) {
  return (tree: Root, file: VFile) => {
    visit(tree, 'image', (node) => {
      const resolution = options.resolveImage(node.url, file.path)
      if ('error' in resolution) {
        reportError(file, node, resolution.error)
        return
      }
      node.url = resolution.url
      node.data = { ...(node.data ?? {}), hProperties: { loading: 'lazy', decoding: 'async' } }
    })
  }
}
