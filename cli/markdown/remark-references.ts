// remark plugin: relative `.md` links become routes and relative images hashed assets; every
// internal link is recorded with its line for the build's link check.
import type { Root, RootContent } from 'mdast'
import type { VFile } from 'vfile'
import type { ReferenceResolver, StepContext } from './data.ts'
import { image, link } from './references.ts'
import { walk } from './walk.ts'

export interface Options {
  resolveLink: ReferenceResolver
  resolveImage: ReferenceResolver
}

export default function remarkReferences(options: Options) {
  return (tree: Root, file: VFile) => {
    const ctx: StepContext = { file, ...options }
    file.data.links ??= []
    walk<RootContent>(tree, (node) => {
      if (node.type === 'link' || node.type === 'definition') link(node, ctx)
      else if (node.type === 'image') image(node, ctx)
    })
  }
}
