// remark plugin, run after the directive plugins: an unknown container or leaf directive is an
// error; a text directive (`:name`) is almost always prose such as "Note:this", so it goes back
// to the text it was written as.
import type { Root } from 'mdast'
import { SKIP, visit } from 'unist-util-visit'
import type { VFile } from 'vfile'
import { reportError } from './messages.ts'
import { ADMONITION_TYPES } from './remark-admonitions.ts'

const KNOWN = new Set<string>([...ADMONITION_TYPES, 'tabs', 'tab', 'quote', 'video', 'providerCard'])

export default function remarkUnknownDirectives() {
  return (tree: Root, file: VFile) => {
    const source = String(file.value)
    visit(tree, (node, index, parent) => {
      if (node.type === 'textDirective' && parent && index !== undefined) {
        const start = node.position?.start.offset
        const end = node.position?.end.offset
        const value = start !== undefined && end !== undefined ? source.slice(start, end) : `:${node.name}`
        parent.children.splice(index, 1, { type: 'text', value })
        return [SKIP, index + 1]
      }
      if ((node.type === 'containerDirective' || node.type === 'leafDirective') && !KNOWN.has(node.name)) {
        reportError(file, node, `unknown directive "${node.type === 'leafDirective' ? '::' : ':::'}${node.name}"`)
      }
    })
  }
}
