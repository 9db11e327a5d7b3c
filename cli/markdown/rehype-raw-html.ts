// rehype plugin: parses the raw HTML that reached the tree (what remark-raw-html.ts kept, or the
// site's own plugins made) into elements, with hast-util-raw. A page without any is left alone:
// reparsing a whole page costs more than rendering it.
import type { Root } from 'hast'
import { raw } from 'hast-util-raw'
import type { VFile } from 'vfile'

const hasRaw = (node: { type: string; children?: unknown[] }): boolean =>
  node.type === 'raw' ||
  (node.children?.some((child) => hasRaw(child as { type: string })) ?? false)

export default function rehypeRawHtml() {
  return (tree: Root, file: VFile): Root | undefined =>
    hasRaw(tree) ? (raw(tree, { file }) as Root) : undefined
}
