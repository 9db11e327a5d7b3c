// markdown-it plugin: text directives (`:name`, `:name[label]{attrs}`) are read as remark-directive
// reads them, then kept as their source text (`text_directive` tokens), which is what Keyward
// renders for them: "10:30" or "Note:this" stay prose, and the brackets and stars of a label
// are neither a link nor emphasis. The tokens are not plain text so that linkify does not join
// them with their neighbours ("mailto:a@b.c" is not a link, as with remark-directive).
import type MarkdownIt from 'markdown-it'
import type { StateInline } from 'markdown-it'
import { scanDirectiveHead } from './directive-syntax.ts'

const COLON = 0x3a
const BACKSLASH = 0x5c

const textDirective = (state: StateInline, silent: boolean): boolean => {
  const { src, pos } = state
  if (src.charCodeAt(pos) !== COLON) return false
  // Not after a colon (`::`), unless that one was escaped (`\::name`, not `\\::name`).
  if (src.charCodeAt(pos - 1) === COLON) {
    let backslashes = 0
    while (src.charCodeAt(pos - 2 - backslashes) === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return false
  }
  const head = scanDirectiveHead(src, pos + 1, state.posMax, true)
  if (!head) return false
  if (!silent) state.push('text_directive', '', 0).content = src.slice(pos, head.end)
  state.pos = head.end
  return true
}

export const textDirectives = (md: MarkdownIt): void => {
  md.inline.ruler.before('linkify', 'text_directive', textDirective)
}
