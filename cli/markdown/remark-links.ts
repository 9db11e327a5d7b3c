// remark plugin: resolves relative `.md` links to routes, and records every internal link
// with its line for the build's link check. A Markdown link to a missing file is an error.
import type { Root } from 'mdast'
import { visit } from 'unist-util-visit'
import type { VFile } from 'vfile'
import type { ReferenceResolver } from './data.ts'
import { reportError } from './messages.ts'

export interface Options {
  resolveLink: ReferenceResolver
}

/** Resolves one reference and records it; returns the URL to write, or undefined on error. */
export const resolveReference = (
  file: VFile,
  node: { position?: { start: { line: number } } },
  href: string,
  resolve: ReferenceResolver,
): string | undefined => {
  const resolution = resolve(href, file.path)
  if ('error' in resolution) {
    reportError(file, node as never, resolution.error)
    return undefined
  }
  if (resolution.check) {
    file.data.links ??= []
    file.data.links.push({ url: resolution.check, line: node.position?.start.line })
  }
  return resolution.url
}

export default function remarkLinks(options: Options) {
  return (tree: Root, file: VFile) => {
    file.data.links ??= []
    visit(tree, (node) => {
      if (node.type !== 'link' && node.type !== 'definition') return
      const url = resolveReference(file, node, node.url, options.resolveLink)
      if (url !== undefined) node.url = url
    })
  }
}
