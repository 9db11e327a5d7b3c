// markdown-it plugin: keeps what markdown-it resolves away but mdast keeps, so the tree matches
// remark's: each link reference definition becomes a `definition` token (markdown-it only files
// it in `env.references`), and links and images made from a reference carry
// `meta.reference = { label, referenceType }`. Keyward resolves a definition's URL once and
// checks it on the definition's line.
import type MarkdownIt from 'markdown-it'
import { type BlockRule, type InlineRule, ruleFn } from './markdown-it-rules.ts'

export interface ReferenceMeta {
  label: string
  referenceType: 'full' | 'collapsed' | 'shortcut'
}

/** The source label of a definition: the text between its first `[` and unescaped `]`. */
const definitionLabel = (src: string, start: number) => {
  let i = src.indexOf('[', start) + 1
  const from = i
  while (i < src.length && src[i] !== ']') i += src[i] === '\\' ? 2 : 1
  return src.slice(from, i)
}

const wrapReference =
  (original: BlockRule): BlockRule =>
  (state, startLine, endLine, silent) => {
    if (silent) return original(state, startLine, endLine, silent)
    // The rule files one definition in env.references; a fresh object shows which one.
    const references: Record<string, { href: string; title: string }> = state.env.references ?? {}
    const own: typeof references = {}
    state.env.references = own
    const found = original(state, startLine, endLine, silent)
    state.env.references = references
    const key = Object.keys(own)[0]
    if (!found || key === undefined) return found
    references[key] ??= own[key]
    const token = state.push('definition', '', 0)
    token.map = [startLine, state.line]
    token.meta = {
      label: definitionLabel(state.src, state.bMarks[startLine]),
      url: own[key].href,
      title: own[key].title || null,
    }
    return found
  }

const wrapLink =
  (original: InlineRule, openType: string): InlineRule =>
  (state, silent) => {
    const start = state.pos
    const first = state.tokens.length
    if (!original(state, silent)) return false
    const end = state.pos
    // An inline link or image ends with `)`, one made from a reference with `]`.
    if (silent || state.src.charCodeAt(end - 1) !== 0x5d) return true
    const token = state.tokens.slice(first).find((t) => t.type === openType)
    if (!token) return true
    const labelStart = state.src.indexOf('[', start) + 1
    state.pos = start + (openType === 'image' ? 1 : 0)
    const labelEnd = state.md.helpers.parseLinkLabel(state, state.pos, true)
    state.pos = end
    const after = state.src.slice(labelEnd + 1, end)
    const meta: ReferenceMeta =
      end === labelEnd + 1
        ? { label: state.src.slice(labelStart, labelEnd), referenceType: 'shortcut' }
        : after === '[]'
          ? { label: state.src.slice(labelStart, labelEnd), referenceType: 'collapsed' }
          : { label: after.slice(1, -1), referenceType: 'full' }
    token.meta = { ...(token.meta ?? {}), reference: meta }
    return true
  }

export const referenceTokens = (md: MarkdownIt): void => {
  md.block.ruler.at('reference', wrapReference(ruleFn(md.block.ruler, 'reference')))
  md.inline.ruler.at('link', wrapLink(ruleFn(md.inline.ruler, 'link'), 'link_open'))
  md.inline.ruler.at('image', wrapLink(ruleFn(md.inline.ruler, 'image'), 'image'))
}
