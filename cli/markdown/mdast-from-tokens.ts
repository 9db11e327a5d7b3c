// Turns markdown-it's token stream into the mdast remark-parse, remark-gfm and remark-directive
// build for the same source, so the remark and rehype steps after it run unchanged. Blocks get
// their lines from `token.map`; inline nodes the line of their block plus the line breaks before
// them. Columns are not tracked (every column is 1): messages only report lines.
import type { Token } from 'markdown-it'
import { unescapeAll } from 'markdown-it/lib/common/utils.mjs'
import type { Nodes, PhrasingContent, Root, RootContent } from 'mdast'
import type { Position } from 'unist'
import { linkLiterals } from './autolink-literals.ts'
import { type AnyParent, at, fromInline, normalizeIdentifier } from './mdast-from-inline.ts'

/** Lines of a block token (markdown-it counts from 0, its end is exclusive). */
const blockPosition = (token: Token): Position | undefined =>
  token.map ? at(token.map[0] + 1, Math.max(token.map[0] + 1, token.map[1])) : undefined

type Align = 'left' | 'right' | 'center' | null

const alignOf = (token: Token): Align => {
  const style = token.attrGet('style')
  const align = style ? /text-align:(\w+)/.exec(style)?.[1] : undefined
  return align === 'left' || align === 'right' || align === 'center' ? align : null
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
