// markdown-it plugin: inline tokens carry no lines, so the mdast conversion counts line breaks
// (softbreak and hardbreak tokens) to give each inline node its line. Code spans, links and
// images can hold line breaks that leave no token (a code span's become spaces, a link's title
// has none); this records how many on the token they end with, as `meta.lineGap`.
import type MarkdownIt from 'markdown-it'
import type { Token } from 'markdown-it'
import { type InlineRule, ruleFn } from './markdown-it-rules.ts'

const countNewlines = (text: string, from = 0, to = text.length) => {
  let n = 0
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++
  return n
}

/** Line breaks a token stands for in the conversion (see mdast-from-tokens.ts). */
export const linesOf = (token: Token): number =>
  token.type === 'softbreak' || token.type === 'hardbreak'
    ? 1
    : token.type === 'html_inline' || token.type === 'text_directive'
      ? countNewlines(token.content)
      : (token.meta?.lineGap ?? 0)

const withLineGap =
  (original: InlineRule): InlineRule =>
  (state, silent) => {
    const start = state.pos
    const first = state.tokens.length
    if (!original(state, silent)) return false
    const newlines = silent ? 0 : countNewlines(state.src, start, state.pos)
    if (newlines === 0) return true
    let counted = 0
    for (let i = first; i < state.tokens.length; i++) counted += linesOf(state.tokens[i])
    const last = state.tokens.at(-1)
    if (last && newlines > counted)
      last.meta = { ...(last.meta ?? {}), lineGap: newlines - counted }
    return true
  }

export const sourceLines = (md: MarkdownIt): void => {
  for (const name of ['backticks', 'link', 'image'])
    md.inline.ruler.at(name, withLineGap(ruleFn(md.inline.ruler, name)))
}
