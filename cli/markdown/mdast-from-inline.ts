// The inline half of the mdast conversion (./mdast-from-tokens.ts): the children of one
// markdown-it `inline` token as phrasing content, each node on the line of its block plus the
// line breaks before it (./source-lines.ts).
import type { Token } from 'markdown-it'
import type { Nodes, Parent } from 'mdast'
import { toString as mdastToString } from 'mdast-util-to-string'
import type { Position } from 'unist'
import type { ReferenceMeta } from './reference-tokens.ts'
import { linesOf } from './source-lines.ts'

/** A position by lines only: messages report lines, and columns are not tracked. */
export const at = (start: number, end = start): Position => ({
  start: { line: start, column: 1 },
  end: { line: end, column: 1 },
})

/** An identifier as mdast normalizes a label: collapsed whitespace, case folded. */
export const normalizeIdentifier = (label: string): string =>
  label
    .replace(/[\t\n\r ]+/g, ' ')
    .trim()
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()

export type AnyParent = Parent & { children: Nodes[] }

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
export const fromInline = (
  tokens: Token[],
  line: number,
  into: AnyParent,
  verbatim: Set<Nodes>,
): void => {
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
