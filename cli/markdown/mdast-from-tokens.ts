// Turns markdown-it's token stream into the mdast remark-parse, remark-gfm and remark-directive
// build for the same source, so the remark and rehype steps after it run unchanged. Blocks get
// their lines from `token.map`; inline nodes the line of their block plus the line breaks before
// them. Columns are not tracked (every column is 1): messages only report lines.
import type { Token } from 'markdown-it'
import { unescapeAll } from 'markdown-it/lib/common/utils.mjs'
import type { Nodes, Parent, PhrasingContent, Root, RootContent } from 'mdast'
import { toString as mdastToString } from 'mdast-util-to-string'
import type { Position } from 'unist'
import { linkLiterals } from './autolink-literals.ts'
import type { ReferenceMeta } from './reference-tokens.ts'
import { linesOf } from './source-lines.ts'

const at = (start: number, end = start): Position => ({
  start: { line: start, column: 1 },
  end: { line: end, column: 1 },
})

/** Lines of a block token (markdown-it counts from 0, its end is exclusive). */
const blockPosition = (token: Token): Position | undefined =>
  token.map ? at(token.map[0] + 1, Math.max(token.map[0] + 1, token.map[1])) : undefined

/** An identifier as mdast normalizes a label: collapsed whitespace, case folded. */
export const normalizeIdentifier = (label: string): string =>
  label
    .replace(/[\t\n\r ]+/g, ' ')
    .trim()
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()

type Align = 'left' | 'right' | 'center' | null

const alignOf = (token: Token): Align => {
  const style = token.attrGet('style')
  const align = style ? /text-align:(\w+)/.exec(style)?.[1] : undefined
  return align === 'left' || align === 'right' || align === 'center' ? align : null
}
type AnyParent = Parent & { children: Nodes[] }

const MAX_INLINE_DEPTH = 100

/** Appends, joining text to a text node before it as mdast does (not to a text directive's). */
const append = (parent: AnyParent, node: Nodes, verbatim: ReadonlySet<Nodes>) => {
  const last = parent.children.at(-1)
  if (node.type === 'text' && last?.type === 'text' && !verbatim.has(last)) {
    last.value += node.value
    if (last.position && node.position) last.position.end = node.position.end
  } else parent.children.push(node)
}

/**
 * The open phrasing nodes of one inline token. A class, so that no closures are made per
 * paragraph. Emphasis pairs are not bounded by markdown-it's maxNesting: past MAX_INLINE_DEPTH
 * they stay text, so `*` × 20,000 cannot overflow the stack of the recursive steps after this.
 */
class PhrasingStack {
  private readonly stack: AnyParent[]
  private flattened = 0

  constructor(
    into: AnyParent,
    private readonly verbatim: Set<Nodes>,
  ) {
    this.stack = [into]
  }

  append(node: Nodes): void {
    append(this.top(), node, this.verbatim)
  }

  /** A text directive's source: its own text node, as Keyward made it from remark's node. */
  appendVerbatim(node: Nodes): void {
    this.verbatim.add(node)
    this.top().children.push(node)
  }

  top(): AnyParent {
    return this.stack[this.stack.length - 1]
  }

  open(node: Nodes, token: Token): void {
    if (this.stack.length > MAX_INLINE_DEPTH) {
      this.flattened++
      if (token.markup) this.append({ type: 'text', value: token.markup })
      return
    }
    this.append(node)
    this.stack.push(node as AnyParent)
  }

  close(token: Token): void {
    if (this.flattened === 0) this.stack.pop()
    else {
      this.flattened--
      if (token.markup) this.append({ type: 'text', value: token.markup })
    }
  }
}

/** The phrasing content of one inline token, starting on `line`. */
const fromInline = (tokens: Token[], line: number, into: AnyParent, verbatim: Set<Nodes>): void => {
  const phrasing = new PhrasingStack(into, verbatim)
  for (const token of tokens) {
    const position = at(line)
    switch (token.type) {
      case 'text':
      case 'text_special':
        phrasing.append({ type: 'text', value: token.content, position })
        break
      case 'text_directive':
        phrasing.appendVerbatim({ type: 'text', value: token.content, position })
        break
      case 'softbreak':
        phrasing.append({ type: 'text', value: '\n', position })
        break
      case 'hardbreak':
        phrasing.append({ type: 'break', position })
        break
      case 'code_inline':
        phrasing.append({ type: 'inlineCode', value: token.content, position })
        break
      case 'html_inline':
        phrasing.append({ type: 'html', value: token.content, position })
        break
      case 'em_open':
        phrasing.open({ type: 'emphasis', children: [], position }, token)
        break
      case 'strong_open':
        phrasing.open({ type: 'strong', children: [], position }, token)
        break
      case 's_open':
        phrasing.open({ type: 'delete', children: [], position }, token)
        break
      case 'link_open': {
        const reference = token.meta?.reference as ReferenceMeta | undefined
        phrasing.open(
          reference
            ? {
                type: 'linkReference',
                identifier: normalizeIdentifier(reference.label),
                label: reference.label,
                referenceType: reference.referenceType,
                children: [],
                position,
              }
            : {
                type: 'link',
                url: token.attrGet('href') ?? '',
                title: token.attrGet('title'),
                children: [],
                position,
              },
          token,
        )
        break
      }
      case 'em_close':
      case 'strong_close':
      case 's_close':
      case 'link_close':
        phrasing.close(token)
        break
      case 'image': {
        const label = { type: 'paragraph', children: [] } as AnyParent
        fromInline(token.children ?? [], line, label, verbatim)
        const alt = mdastToString(label)
        const reference = token.meta?.reference as ReferenceMeta | undefined
        phrasing.append(
          reference
            ? {
                type: 'imageReference',
                identifier: normalizeIdentifier(reference.label),
                label: reference.label,
                referenceType: reference.referenceType,
                alt,
                position,
              }
            : {
                type: 'image',
                url: token.attrGet('src') ?? '',
                title: token.attrGet('title'),
                alt,
                position,
              },
        )
        break
      }
      case 'footnote_ref': {
        const label = String(token.meta.label)
        phrasing.append({
          type: 'footnoteReference',
          identifier: normalizeIdentifier(label),
          label,
          position,
        })
        break
      }
    }
    line += linesOf(token)
  }
}

const TASK = /^\[([ xX])\][ \t\n]/

/** GFM task list items: `[ ]` or `[x]` and one space start the item's first paragraph. */
const takeTaskCheck = (item: AnyParent & { checked?: boolean | null }) => {
  const paragraph = item.children[0]
  if (paragraph?.type !== 'paragraph') return
  const head = paragraph.children[0]
  const match = head?.type === 'text' ? TASK.exec(head.value) : null
  if (!match || head?.type !== 'text') return
  item.checked = match[1] !== ' '
  head.value = head.value.slice(4)
  if (!head.value) paragraph.children.shift()
}

const fenceInfo = (info: string) => {
  const text = unescapeAll(info).trim()
  const space = text.search(/\s/)
  if (space < 0) return { lang: text || null, meta: null }
  return { lang: text.slice(0, space), meta: text.slice(space).trim() || null }
}

const withoutFinalNewline = (text: string) => (text.endsWith('\n') ? text.slice(0, -1) : text)

/** Builds the mdast root of a markdown-it token stream. */
export const mdastFromTokens = (tokens: Token[]): Root => {
  const root: Root = { type: 'root', children: [] }
  const verbatim = new Set<Nodes>()
  const stack: AnyParent[] = [root as AnyParent]
  // Lists whose paragraphs markdown-it shows (a loose list); their items are spread.
  const loose = new Set<AnyParent>()
  const top = () => stack[stack.length - 1]
  const open = (node: RootContent) => {
    top().children.push(node)
    stack.push(node as AnyParent)
  }
  let align: Align[] = []
  let inHead = false
  for (const token of tokens) {
    // Table cells have no lines of their own; their row has.
    const position = blockPosition(token) ?? top().position
    switch (token.type) {
      case 'inline':
        fromInline(token.children ?? [], position?.start.line ?? 1, top(), verbatim)
        top().children = linkLiterals(top().children as PhrasingContent[], verbatim)
        break
      case 'paragraph_open': {
        const parent = top()
        if (!token.hidden && parent.type === 'listItem') loose.add(stack[stack.length - 2])
        open({ type: 'paragraph', children: [], position })
        break
      }
      case 'directive_label_open':
        open({ type: 'paragraph', children: [], data: { directiveLabel: true }, position })
        break
      case 'heading_open':
        open({
          type: 'heading',
          depth: Number(token.tag.slice(1)) as 1 | 2 | 3 | 4 | 5 | 6,
          children: [],
          position,
        })
        break
      case 'blockquote_open':
        open({ type: 'blockquote', children: [], position })
        break
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const ordered = token.type === 'ordered_list_open'
        open({
          type: 'list',
          ordered,
          start: ordered ? Number(token.attrGet('start') ?? 1) : null,
          spread: false,
          children: [],
          position,
        })
        break
      }
      case 'list_item_open':
        open({ type: 'listItem', spread: false, checked: null, children: [], position })
        break
      case 'list_item_close':
        takeTaskCheck(stack.pop()!)
        break
      case 'bullet_list_close':
      case 'ordered_list_close': {
        const list = stack.pop()!
        if (loose.has(list)) {
          ;(list as { spread?: boolean }).spread = true
          for (const item of list.children) (item as { spread?: boolean }).spread = true
        }
        break
      }
      case 'table_open':
        align = []
        open({ type: 'table', align, children: [], position })
        break
      case 'thead_open':
        inHead = true
        break
      case 'thead_close':
        inHead = false
        break
      case 'tr_open':
        open({ type: 'tableRow', children: [], position })
        break
      case 'th_open':
      case 'td_open':
        if (inHead) align.push(alignOf(token))
        open({ type: 'tableCell', children: [], position })
        break
      case 'fence':
      case 'code_block':
        top().children.push({
          type: 'code',
          ...(token.type === 'fence' ? fenceInfo(token.info) : { lang: null, meta: null }),
          value: withoutFinalNewline(token.content),
          position,
        })
        break
      case 'hr':
        top().children.push({ type: 'thematicBreak', position })
        break
      case 'html_block':
        top().children.push({ type: 'html', value: token.content.replace(/\n+$/, ''), position })
        break
      case 'definition': {
        const { label, url, title } = token.meta
        top().children.push({
          type: 'definition',
          identifier: normalizeIdentifier(label),
          label,
          url,
          title,
          position,
        })
        break
      }
      case 'footnote_reference_open': {
        const label = String(token.meta.label)
        open({
          type: 'footnoteDefinition',
          identifier: normalizeIdentifier(label),
          label,
          children: [],
          position,
        })
        break
      }
      case 'container_directive_open':
      case 'leaf_directive_open':
        open({
          type: token.type === 'container_directive_open' ? 'containerDirective' : 'leafDirective',
          name: token.meta.name,
          attributes: token.meta.attributes,
          children: [],
          position,
        } as RootContent)
        break
      case 'paragraph_close':
      case 'directive_label_close':
      case 'heading_close':
      case 'blockquote_close':
      case 'table_close':
      case 'tr_close':
      case 'th_close':
      case 'td_close':
      case 'footnote_reference_close':
      case 'container_directive_close':
      case 'leaf_directive_close':
        stack.pop()
        break
    }
  }
  return root
}
