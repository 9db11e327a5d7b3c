// rehype plugin: highlights fenced code at build time (lowlight, so no highlighter reaches the
// browser), one span per line for line highlighting, an optional title and a copy button.
import type { Element, ElementContent, Root, RootContent, Text } from 'hast'
import { toString as hastToString } from 'hast-util-to-string'
import { common, createLowlight } from 'lowlight'
import { SKIP, walk } from './walk.ts'

const lowlight = createLowlight(common)

const PLAIN = new Set(['text', 'txt', 'plain', 'plaintext', 'none'])

export interface CodeMeta {
  title?: string
  highlightLines: Set<number>
}

/** Parses a fence's meta string: `title="…"` and a `{1,3-5}` line range list. */
export const parseCodeMeta = (meta: string | undefined): CodeMeta => {
  const highlightLines = new Set<number>()
  if (!meta) return { title: undefined, highlightLines }
  const title = /title=(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(meta)
  const ranges = /\{([\d,\s-]+)\}/.exec(meta)
  for (const part of ranges?.[1].split(',') ?? []) {
    const [from, to = from] = part.trim().split('-').map(Number)
    if (Number.isInteger(from) && Number.isInteger(to) && to - from < 10_000)
      for (let n = from; n <= to; n++) highlightLines.add(n)
  }
  return { title: title ? (title[1] ?? title[2] ?? title[3]) : undefined, highlightLines }
}

interface Segment {
  text: string
  classes: string[][]
}

/** Flattens highlighted nodes into text segments that remember their enclosing span classes. */
const flatten = (
  nodes: ElementContent[] | Root['children'],
  classes: string[][],
  out: Segment[],
) => {
  for (const node of nodes) {
    if (node.type === 'text') out.push({ text: node.value, classes })
    else if (node.type === 'element')
      flatten(node.children, [...classes, (node.properties.className as string[]) ?? []], out)
  }
}

const wrap = (text: string, classes: string[][]): ElementContent => {
  let node: ElementContent = { type: 'text', value: text } as Text
  for (let i = classes.length - 1; i >= 0; i--)
    node = {
      type: 'element',
      tagName: 'span',
      properties: { className: classes[i] },
      children: [node],
    }
  return node
}

/** Splits highlighted code into one `span.line` per source line. */
export const toLines = (nodes: Root['children'], highlight: Set<number>): ElementContent[] => {
  const segments: Segment[] = []
  flatten(nodes, [], segments)
  const lines: ElementContent[][] = [[]]
  for (const segment of segments) {
    const parts = segment.text.split('\n')
    parts.forEach((part, i) => {
      if (i > 0) lines.push([])
      if (part) lines.at(-1)!.push(wrap(part, segment.classes))
    })
  }
  if (lines.length > 1 && lines.at(-1)!.length === 0) lines.pop()
  return lines.flatMap((children, i) => {
    const line: Element = {
      type: 'element',
      tagName: 'span',
      properties: { className: highlight.has(i + 1) ? ['line', 'line--highlighted'] : ['line'] },
      children,
    }
    return i === lines.length - 1 ? [line] : [line, { type: 'text', value: '\n' }]
  })
}

export default function rehypeCode() {
  return (tree: Root) => {
    walk<RootContent | ElementContent, Root | Element>(tree, (node, index, parent) => {
      if (node.type !== 'element' || node.tagName !== 'pre') return
      const code = node.children[0]
      if (code?.type !== 'element' || code.tagName !== 'code') return
      const languageClass = ((code.properties.className as string[]) ?? []).find((c) =>
        c.startsWith('language-'),
      )
      const language = languageClass?.slice('language-'.length).toLowerCase()
      const meta = parseCodeMeta((code.data as { meta?: string } | undefined)?.meta)
      const source = hastToString(code).replace(/\n$/, '')
      const highlighted =
        language && !PLAIN.has(language) && lowlight.registered(language)
          ? lowlight.highlight(language, source).children
          : [{ type: 'text' as const, value: source }]
      code.children = toLines(highlighted, meta.highlightLines)
      code.properties.className = language ? ['hljs', `language-${language}`] : ['hljs']
      node.properties.tabIndex = 0
      const children: ElementContent[] = []
      if (meta.title)
        children.push({
          type: 'element',
          tagName: 'div',
          properties: { className: ['code-block__title'] },
          children: [{ type: 'text', value: meta.title }],
        })
      children.push({
        type: 'element',
        tagName: 'div',
        properties: { className: ['code-block__body'] },
        children: [
          node,
          {
            type: 'element',
            tagName: 'button',
            properties: {
              type: 'button',
              className: ['copy-button'],
              ariaLabel: 'Copy code to clipboard',
              title: 'Copy',
            },
            children: [{ type: 'text', value: 'Copy' }],
          },
        ],
      })
      parent.children[index] = {
        type: 'element',
        tagName: 'div',
        properties: { className: ['code-block'], dataLanguage: language },
        children,
      }
      return SKIP
    })
  }
}
