// Scanners for the parts of remark-directive's syntax (micromark-extension-directive): a
// directive's name, its `[label]` and its `{attributes}`, with mdast-util-directive's rules for
// the `#id` and `.class` shorthands. Each returns the offset after what it read, or -1.
import { isSpace, unescapeAll } from 'markdown-it/lib/common/utils.mjs'

const isAlpha = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
const isAlphanumeric = (c: number) => isAlpha(c) || (c >= 0x30 && c <= 0x39)
const isWhitespace = (c: number) => isSpace(c) || c === 0x0a || c === 0x0d

/** `name` starts with a letter, goes on with letters, digits, `-` and `_`, and ends with neither. */
export const scanName = (src: string, pos: number, max: number): number => {
  if (pos >= max || !isAlpha(src.charCodeAt(pos))) return -1
  let end = pos + 1
  while (end < max) {
    const c = src.charCodeAt(end)
    if (!(isAlphanumeric(c) || c === 0x2d || c === 0x5f)) break
    end++
  }
  const last = src.charCodeAt(end - 1)
  return last === 0x2d || last === 0x5f ? -1 : end
}

/** `[label]` with balanced brackets and backslash escapes; `pos` is at the `[`. */
export const scanLabel = (src: string, pos: number, max: number, allowEol: boolean): number => {
  let depth = 0
  for (let i = pos; i < max; i++) {
    const c = src.charCodeAt(i)
    if (c === 0x5c) i++
    else if (c === 0x5b) depth++
    else if (c === 0x5d && --depth === 0) return i + 1
    else if (c === 0x0a && !allowEol) return -1
  }
  return -1
}

export type DirectiveAttributes = Record<string, string>

// Characters that end an unquoted value, and a `#id` or `.class` shorthand.
const UNQUOTED_END = new Set([...'"\'<=>`}'].map((c) => c.charCodeAt(0)))
const SHORTHAND_END = new Set([...'"\'#.<=>`}'].map((c) => c.charCodeAt(0)))

const isNameStart = (c: number) => isAlpha(c) || c === 0x3a || c === 0x5f
const isNameRest = (c: number) =>
  isAlphanumeric(c) || c === 0x2d || c === 0x2e || c === 0x3a || c === 0x5f

/** Character references are decoded in values, backslashes are kept (as micromark does). */
const decode = (value: string) =>
  value.includes('&') ? unescapeAll(value.replaceAll('\\', '\\\\')) : value

/**
 * `{#id .class key=value key="value" key='value' key}`; `pos` is at the `{`. The last id wins and
 * classes add up, as in mdast-util-directive.
 */
export const scanAttributes = (
  src: string,
  pos: number,
  max: number,
  allowEol: boolean,
): { end: number; attributes: DirectiveAttributes } | undefined => {
  const attributes: DirectiveAttributes = {}
  const add = (key: string, value: string) => {
    attributes[key] = key === 'class' && attributes.class ? `${attributes.class} ${value}` : value
  }
  const space = (c: number) => (allowEol ? isWhitespace(c) : isSpace(c))
  let i = pos + 1
  while (i < max) {
    let c = src.charCodeAt(i)
    if (space(c)) {
      i++
      continue
    }
    if (c === 0x7d) return { end: i + 1, attributes }
    if (c === 0x23 || c === 0x2e) {
      const start = i + 1
      let end = start
      while (end < max && !space(src.charCodeAt(end)) && !SHORTHAND_END.has(src.charCodeAt(end)))
        end++
      if (end === start) return undefined
      add(c === 0x23 ? 'id' : 'class', decode(src.slice(start, end)))
      i = end
      continue
    }
    if (!isNameStart(c)) return undefined
    const nameStart = i
    while (i < max && isNameRest(src.charCodeAt(i))) i++
    const key = src.slice(nameStart, i)
    let j = i
    while (j < max && space(src.charCodeAt(j))) j++
    if (src.charCodeAt(j) !== 0x3d) {
      add(key, '')
      continue
    }
    j++
    while (j < max && space(src.charCodeAt(j))) j++
    c = src.charCodeAt(j)
    if (c === 0x22 || c === 0x27) {
      const close = src.indexOf(src[j], j + 1)
      if (close < 0 || close >= max) return undefined
      const value = src.slice(j + 1, close)
      if (!allowEol && value.includes('\n')) return undefined
      add(key, decode(value))
      i = close + 1
      continue
    }
    const start = j
    while (j < max && !space(src.charCodeAt(j)) && !UNQUOTED_END.has(src.charCodeAt(j))) j++
    if (j === start) return undefined
    add(key, decode(src.slice(start, j)))
    i = j
  }
  return undefined
}

export interface DirectiveHead {
  name: string
  /** Source of the label, without its brackets; undefined when there is none. */
  label?: string
  attributes: DirectiveAttributes
  end: number
}

// Text directives are looked for at every `:name` of a paragraph: this bound on what their label
// and attributes may span keeps that linear on hostile input (`:a[` × 10,000).
const MAX_TEXT_DIRECTIVE = 1000

/** Reads `name[label]{attributes}` from `pos` (after the colons). */
export const scanDirectiveHead = (
  src: string,
  pos: number,
  lineMax: number,
  allowEol: boolean,
): DirectiveHead | undefined => {
  const max = allowEol ? Math.min(lineMax, pos + MAX_TEXT_DIRECTIVE) : lineMax
  const nameEnd = scanName(src, pos, max)
  if (nameEnd < 0) return undefined
  const head: DirectiveHead = { name: src.slice(pos, nameEnd), attributes: {}, end: nameEnd }
  if (src.charCodeAt(head.end) === 0x5b) {
    const labelEnd = scanLabel(src, head.end, max, allowEol)
    if (labelEnd >= 0) {
      head.label = src.slice(head.end + 1, labelEnd - 1)
      head.end = labelEnd
    }
  }
  if (src.charCodeAt(head.end) === 0x7b) {
    const scanned = scanAttributes(src, head.end, max, allowEol)
    if (scanned) {
      head.attributes = scanned.attributes
      head.end = scanned.end
    }
  }
  return head
}
