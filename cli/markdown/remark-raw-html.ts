// remark plugin: raw HTML written in a page is kept when every tag in it is on a short list of
// harmless ones (collapsible blocks, keys, super- and subscripts, line breaks, tables) with at
// most a few layout attributes; anything else (a script, a style, an event handler, an iframe,
// an unknown tag) is left out with a warning naming the line, never silently. The kept HTML is
// parsed into elements by rehype-raw after remark-rehype.
import type { Html, Root, RootContent } from 'mdast'
import type { VFile } from 'vfile'
import { reportWarning } from './messages.ts'
import { walk } from './walk.ts'

const CELL = new Set(['align', 'colspan', 'rowspan'])
const NONE = new Set<string>()

/** The tags kept, and the attributes each may carry. */
export const ALLOWED_HTML: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['details', new Set(['open'])],
  ['summary', NONE],
  ['kbd', NONE],
  ['sup', NONE],
  ['sub', NONE],
  ['br', NONE],
  ['table', NONE],
  ['caption', NONE],
  ['thead', NONE],
  ['tbody', NONE],
  ['tfoot', NONE],
  ['tr', NONE],
  ['th', CELL],
  ['td', CELL],
])

// A tag as HTML writes it: name, attributes (quoted or bare values), optional self-closing slash.
const TAG =
  /<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/y
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g
const COMMENT = /<!--[\s\S]*?-->/y
const COMMENTS = /<!--[\s\S]*?-->/g

/** Why an HTML fragment is not kept, or undefined when every tag in it is allowed. */
export const refusedHtml = (value: string): string | undefined => {
  for (let at = value.indexOf('<'); at !== -1; at = value.indexOf('<', at + 1)) {
    COMMENT.lastIndex = at
    if (COMMENT.exec(value)) {
      at = COMMENT.lastIndex - 1
      continue
    }
    TAG.lastIndex = at
    const tag = TAG.exec(value)
    if (!tag) {
      // `a < b` is text; `<!doctype`, `<?php`, `</` or `<x` that is not a whole tag is markup.
      if (/[A-Za-z/!?]/.test(value[at + 1] ?? '')) return 'markup that is not a plain tag'
      continue
    }
    const name = tag[2].toLowerCase()
    const allowed = ALLOWED_HTML.get(name)
    if (!allowed) return `<${name}>`
    for (const [, attribute] of tag[3].matchAll(ATTRIBUTE))
      if (!allowed.has(attribute.toLowerCase())) return `the ${attribute} attribute on <${name}>`
    at = TAG.lastIndex - 1
  }
  return undefined
}

export default function remarkRawHtml() {
  return (tree: Root, file: VFile) => {
    const refusedNodes = new Set<Html>()
    const said = new Set<string>()
    walk<RootContent>(tree, (node) => {
      if (node.type !== 'html') return
      const refused = refusedHtml(node.value)
      if (!refused) {
        // Comments are notes to other writers, not content.
        node.value = node.value.replace(COMMENTS, '')
        return
      }
      refusedNodes.add(node)
      // `<span>` and `</span>` on one line are one problem.
      const key = `${node.position?.start.line}:${refused}`
      if (said.has(key)) return
      said.add(key)
      reportWarning(
        file,
        node,
        `raw HTML left out: ${refused} is not kept (allowed: ${[...ALLOWED_HTML.keys()].join(', ')})`,
      )
    })
    if (!refusedNodes.size) return
    // Left out, as all raw HTML was before, but said: the rest of the page still renders.
    walk<RootContent, { children: RootContent[] }>(tree, (node) => {
      if ('children' in node)
        (node as { children: RootContent[] }).children = node.children.filter(
          (child) => !refusedNodes.has(child as Html),
        ) as never
    })
    tree.children = tree.children.filter((child) => !refusedNodes.has(child as Html))
  }
}
