// The parser the docs used before markdown-it (remark-parse, GFM, directives), kept only to
// compare the two: text directives become their source text, as Keyward renders them.
import type { Root } from 'mdast'
import remarkDirective from 'remark-directive'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import type { PluggableList } from 'unified'
import { SKIP, visit } from 'unist-util-visit'
import type { VFile } from 'vfile'

const remarkTextDirectivesAsText = () => (tree: Root, file: VFile) => {
  const source = String(file.value)
  visit(tree, 'textDirective', (node, index, parent) => {
    if (!parent || index === undefined) return
    const start = node.position?.start.offset
    const end = node.position?.end.offset
    const value =
      start !== undefined && end !== undefined ? source.slice(start, end) : `:${node.name}`
    parent.children.splice(index, 1, { type: 'text', value })
    return [SKIP, index + 1]
  })
}

export const remarkParser: PluggableList = [
  remarkParse,
  remarkGfm,
  remarkDirective,
  remarkTextDirectivesAsText,
]
