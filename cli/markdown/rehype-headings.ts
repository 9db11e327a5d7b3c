// rehype plugin: gives headings ids (GitHub slugs, or `{#custom-id}` written after the text),
// adds an anchor link to each, collects the table of contents and every id of the page, and
// takes a leading h1 out of the body as the page title.
import Slugger from 'github-slugger'
import type { Element, ElementContent, Root, RootContent, Text } from 'hast'
import { toString as hastToString } from 'hast-util-to-string'
import type { VFile } from 'vfile'
import { reportWarning } from './messages.ts'
import { walk } from './walk.ts'

const HEADING = /^h([1-6])$/
const CUSTOM_ID = /\s*\{#([\w-]+)\}\s*$/

/** Strips a trailing `{#id}` from the heading's last text node and returns the id. */
const takeCustomId = (heading: Element): string | undefined => {
  const last = heading.children.at(-1)
  if (last?.type !== 'text') return undefined
  const match = CUSTOM_ID.exec(last.value)
  if (!match) return undefined
  ;(last as Text).value = last.value.slice(0, match.index)
  return match[1]
}

export default function rehypeHeadings() {
  return (tree: Root, file: VFile) => {
    const slugger = new Slugger()
    const headings: NonNullable<typeof file.data.headings> = []
    const ids: string[] = []
    const first = tree.children.find((n) => n.type === 'element')
    if (first?.type === 'element' && first.tagName === 'h1') {
      file.data.h1 = hastToString(first).trim()
      tree.children.splice(tree.children.indexOf(first), 1)
    }
    walk<RootContent | ElementContent>(tree, (node) => {
      if (node.type !== 'element') return
      const level = HEADING.exec(node.tagName)?.[1]
      // Headings that already carry an id (the footnotes label) keep it and stay out of the TOC.
      if (!level || typeof node.properties.id === 'string') {
        if (typeof node.properties.id === 'string') ids.push(node.properties.id)
        return
      }
      const custom = takeCustomId(node)
      const text = hastToString(node).trim()
      const id = custom ?? slugger.slug(text)
      if (custom) slugger.slug(custom)
      if (ids.includes(id)) reportWarning(file, node, `duplicate heading id "${id}"`)
      ids.push(id)
      node.properties.id = id
      node.properties.className = ['anchor']
      node.children.push({
        type: 'element',
        tagName: 'a',
        properties: {
          className: ['hash-link'],
          href: `#${id}`,
          ariaLabel: `Direct link to ${text}`,
        },
        children: [{ type: 'text', value: '#' }],
      })
      headings.push({ id, text, level: Number(level) })
    })
    file.data.headings = headings
    file.data.ids = ids
  }
}
