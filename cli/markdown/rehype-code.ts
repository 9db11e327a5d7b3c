// rehype plugin: highlights fenced code at build time (lowlight, so no highlighter reaches the
// browser), one span per line for line highlighting, diff and focus markers, optional line
// numbers and title, and a copy button.
import type { Element, ElementContent, Root, RootContent, Text } from 'hast'
import { toString as hastToString } from 'hast-util-to-string'
import { common, createLowlight } from 'lowlight'
import { SKIP, walk } from './walk.ts'

const lowlight = createLowlight(common)

const PLAIN = new Set(['text', 'txt', 'plain', 'plaintext', 'none'])

export interface CodeMeta {
  title?: string
  highlightLines: Set<number>
  /** `showLineNumbers` or `showLineNumbers=12` (the first line's number). */
  lineNumbersFrom?: number
}

/**
 * Parses a fence's meta string: `title="…"`, a `{1,3-5}` line range list and
 * `showLineNumbers[=N]`.
 */
export const parseCodeMeta = (meta: string | undefined): CodeMeta => {
  const highlightLines = new Set<number>()
  if (!meta) return { title: undefined, highlightLines }
  const numbers = /(?:^|\s)showLineNumbers(?:=(\d{1,7}))?(?=\s|$)/.exec(meta)
  const title = /title=(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(meta)
  const ranges = /\{([\d,\s-]+)\}/.exec(meta)
  for (const part of ranges?.[1].split(',') ?? []) {
    const [from, to = from] = part.trim().split('-').map(Number)
    if (Number.isInteger(from) && Number.isInteger(to) && to - from < 10_000)
      for (let n = from; n <= to; n++) highlightLines.add(n)
  }
  return {
    title: title ? (title[1] ?? title[2] ?? title[3]) : undefined,
    highlightLines,
    ...(numbers && { lineNumbersFrom: Number(numbers[1] ?? 1) }),
  }
}

/** What a `[!code …]` marker does to its line. */
type LineMark = 'added' | 'removed' | 'focused' | 'highlighted'

const MARKS: Record<string, LineMark> = {
  '++': 'added',
  '--': 'removed',
  focus: 'focused',
  highlight: 'highlighted',
}

// A marker ends its line inside the language's comment: `// [!code ++]`, `# [!code --]`,
// `<!-- [!code focus] -->`, `/* [!code highlight] */`, `-- [!code ++]` or `; [!code ++]`.
const MARKER =
  /[ \t]*(?:\/\/|#|<!--|\/\*|--|;)[ \t]*\[!code (\+\+|--|focus|highlight)\][ \t]*(?:-->|\*\/)?[ \t]*$/

/** Removes the `[!code …]` markers from the source and says which line each marked. */
export const takeLineMarks = (source: string): { code: string; marks: Map<number, LineMark> } => {
  const marks = new Map<number, LineMark>()
  if (!source.includes('[!code ')) return { code: source, marks }
  const lines = source.split('\n').map((line, i) => {
    const match = MARKER.exec(line)
    if (!match) return line
    marks.set(i + 1, MARKS[match[1]])
    return line.slice(0, match.index)
  })
  return { code: lines.join('\n'), marks }
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

const lineClasses = (n: number, highlight: Set<number>, marks: Map<number, LineMark>) => {
  const classes = ['line']
  const mark = marks.get(n)
  if (highlight.has(n) || mark === 'highlighted') classes.push('line--highlighted')
  if (mark && mark !== 'highlighted') classes.push(`line--${mark}`)
  return classes
}

/** Splits highlighted code into one `span.line` per source line. */
export const toLines = (
  nodes: Root['children'],
  highlight: Set<number>,
  marks: Map<number, LineMark> = new Map(),
): ElementContent[] => {
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
      properties: { className: lineClasses(i + 1, highlight, marks) },
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
      const { code: source, marks } = takeLineMarks(hastToString(code).replace(/\n$/, ''))
      const highlighted =
        language && !PLAIN.has(language) && lowlight.registered(language)
          ? lowlight.highlight(language, source).children
          : [{ type: 'text' as const, value: source }]
      code.children = toLines(highlighted, meta.highlightLines, marks)
      code.properties.className = language ? ['hljs', `language-${language}`] : ['hljs']
      node.properties.tabIndex = 0
      const preClasses = [
        meta.lineNumbersFrom === undefined ? '' : 'has-line-numbers',
        [...marks.values()].some((m) => m === 'added' || m === 'removed') ? 'has-diff' : '',
        [...marks.values()].includes('focused') ? 'has-focus' : '',
      ].filter(Boolean)
      if (preClasses.length) node.properties.className = preClasses
      // The counter starts one before the first number: each line increments it.
      if (meta.lineNumbersFrom !== undefined && meta.lineNumbersFrom !== 1)
        node.properties.style = `counter-reset:line ${meta.lineNumbersFrom - 1}`
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
