// GFM autolink literals (`https://…`, `www.…`, e-mail addresses, `mailto:` and `xmpp:`), found
// in the text of the mdast as remark-gfm finds them (mdast-util-gfm-autolink-literal: the same
// expressions, the same checks of the domain and the character before, the same trimming of
// trailing punctuation), in place of markdown-it's linkify, which reads them otherwise.
import type { Link, PhrasingContent, Text } from 'mdast'

type Found = PhrasingContent[] | PhrasingContent | false

// One expression per kind, applied in this order; each sees the text the ones before it left.
const URL = /(?<![\da-z])(https?:\/\/|www(?=\.))([\w-]*\.[\w\-.]*)([^\t\n\r ]*)/gi
const XMPP =
  /(?<![\w+\-.@])xmpp:([\w+\-.]+)@([\w-]+(?:\.[\w-]+)+)(\/(?:[\w\-/]|\.(?=[\dA-Za-z]))*)?/g
const MAILTO = /(?<![\w+\-.@])mailto:([\w+\-.]+)@([\w-]+(?:\.[\w-]+)+)/g
const EMAIL = /(?<![\w+\-.]|(?:^|[^\d@A-Za-z])(?:mailto|xmpp):)([\w+\-.]+)@([\w-]+(?:\.[\w-]+)+)/g
/** Text that none of them can match. */
const CANDIDATE = /:\/\/|www\.|@/i

const PUNCTUATION_OR_SPACE = /[\p{P}\p{S}\s]/u
const TRAILING = new Set([...'!"&\'),.:;<>?]}'].map((c) => c.charCodeAt(0)))

const link = (url: string, text: string): Link => ({
  type: 'link',
  title: null,
  url,
  children: [{ type: 'text', value: text }],
})

const isCorrectDomain = (domain: string) => {
  const parts = domain.split('.')
  const bad = (part: string | undefined) => !!part && (/_/.test(part) || !/[\dA-Za-z]/.test(part))
  return parts.length >= 2 && !bad(parts.at(-1)) && !bad(parts.at(-2))
}

const count = (text: string, char: string) => text.split(char).length - 1

/** Trailing punctuation is not part of a URL, but closing parentheses it opened are. */
const splitUrl = (url: string): [string, string | undefined] => {
  let index = url.length
  while (index > 0 && TRAILING.has(url.charCodeAt(index - 1))) index--
  if (index === url.length) return [url, undefined]
  let trail = url.slice(index)
  let kept = url.slice(0, index)
  let closing = trail.indexOf(')')
  const opening = count(kept, '(')
  let closed = count(kept, ')')
  while (closing !== -1 && opening > closed) {
    kept += trail.slice(0, closing + 1)
    trail = trail.slice(closing + 1)
    closing = trail.indexOf(')')
    closed++
  }
  return [kept, trail]
}

const findUrl = (match: RegExpExecArray): Found => {
  let [, protocol, domain] = match
  const path = match[3]
  const before = match.input.charAt(match.index - 1)
  if (match.index > 0 && !PUNCTUATION_OR_SPACE.test(before)) return false
  let prefix = ''
  if (/^w/i.test(protocol)) {
    domain = protocol + domain
    protocol = ''
    prefix = 'http://'
  }
  if (/^[\p{P}\p{S}]/u.test(domain) || !isCorrectDomain(domain)) return false
  const [url, trail] = splitUrl(domain + path)
  const result = link(prefix + protocol + url, protocol + url)
  return trail ? [result, { type: 'text', value: trail }] : result
}

const findXmpp = (match: RegExpExecArray): Found => {
  const [value, atext, label, resource] = match
  if (
    /[\d\-_]$/.test(label) ||
    (resource &&
      (!/[A-Za-z]$/.test(resource) || match.input.charAt(match.index + value.length) === '@'))
  )
    return false
  const url = `xmpp:${atext}@${label}${resource ?? ''}`
  return link(url, url)
}

const findMailto = ([, atext, label]: RegExpExecArray): Found => {
  if (/[\d\-_]$/.test(label)) return false
  const url = `mailto:${atext}@${label}`
  return link(url, url)
}

const findEmail = ([, atext, label]: RegExpExecArray): Found =>
  /[\d\-_]$/.test(label) ? false : link(`mailto:${atext}@${label}`, `${atext}@${label}`)

const FINDERS: [RegExp, (match: RegExpExecArray) => Found][] = [
  [URL, findUrl],
  [XMPP, findXmpp],
  [MAILTO, findMailto],
  [EMAIL, findEmail],
]

/** Replaces matches in one text node, as mdast-util-find-and-replace does. */
const replaceIn = (
  node: Text,
  find: RegExp,
  replace: (match: RegExpExecArray) => Found,
): PhrasingContent[] => {
  const out: PhrasingContent[] = []
  let start = 0
  find.lastIndex = 0
  for (let match = find.exec(node.value); match; match = find.exec(node.value)) {
    const value = replace(match)
    if (value === false) {
      // As if there was no match: try again from the next character.
      find.lastIndex = match.index + 1
      continue
    }
    if (start !== match.index)
      out.push({ type: 'text', value: node.value.slice(start, match.index) })
    for (const part of Array.isArray(value) ? value : [value])
      out.push({ ...part, position: node.position } as PhrasingContent)
    start = match.index + match[0].length
  }
  if (start === 0) return [node]
  if (start < node.value.length) out.push({ type: 'text', value: node.value.slice(start) })
  for (const part of out) part.position ??= node.position
  return out
}

/**
 * The phrasing nodes with autolink literals of their text made links. Links are left alone, and
 * so are the `verbatim` text nodes (text directives, which remark-gfm never saw as text).
 */
export const linkLiterals = (
  children: PhrasingContent[],
  verbatim: { has(node: PhrasingContent): boolean },
): PhrasingContent[] => {
  let changed = false
  const out: PhrasingContent[] = []
  for (const child of children) {
    if (child.type !== 'text') {
      if ('children' in child && child.type !== 'link' && child.type !== 'linkReference')
        child.children = linkLiterals(child.children, verbatim) as typeof child.children
      out.push(child)
      continue
    }
    if (verbatim.has(child) || !CANDIDATE.test(child.value)) {
      out.push(child)
      continue
    }
    let nodes: PhrasingContent[] = [child]
    for (const [find, replace] of FINDERS)
      nodes = nodes.flatMap((node) =>
        node.type === 'text' ? replaceIn(node, find, replace) : [node],
      )
    if (nodes.length !== 1 || nodes[0] !== child) changed = true
    out.push(...nodes)
  }
  return changed ? out : children
}
