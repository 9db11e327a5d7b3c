// markdown-it plugin: GFM strikethrough as remark-gfm reads it, in place of markdown-it's own:
// `~one~` as well as `~~two~~`, a closing run as long as the opening one, and runs of three or
// more tildes left as text.
import type MarkdownIt from 'markdown-it'
import type { StateInline } from 'markdown-it'

const TILDE = 0x7e
// The delimiter "marker" keys markdown-it's pairing: one per run length, so `~` closes only `~`.
const SINGLE = -TILDE
const DOUBLE = -TILDE * 2

const tokenize = (state: StateInline, silent: boolean): boolean => {
  if (silent || state.src.charCodeAt(state.pos) !== TILDE) return false
  const scanned = state.scanDelims(state.pos, true)
  const token = state.push('text', '', 0)
  token.content = state.src.slice(state.pos, state.pos + scanned.length)
  if (scanned.length <= 2)
    state.delimiters.push({
      marker: scanned.length === 1 ? SINGLE : DOUBLE,
      length: 0, // no "rule of 3", which is for emphasis
      token: state.tokens.length - 1,
      end: -1,
      open: scanned.can_open,
      close: scanned.can_close,
    })
  state.pos += scanned.length
  return true
}

const pair = (state: StateInline, delimiters: StateInline['delimiters']) => {
  for (const opener of delimiters) {
    if ((opener.marker !== SINGLE && opener.marker !== DOUBLE) || opener.end === -1) continue
    const open = state.tokens[opener.token]
    const close = state.tokens[delimiters[opener.end].token]
    const markup = open.content
    Object.assign(open, { type: 's_open', tag: 's', nesting: 1, markup, content: '' })
    Object.assign(close, { type: 's_close', tag: 's', nesting: -1, markup, content: '' })
  }
}

const postProcess = (state: StateInline): boolean => {
  pair(state, state.delimiters)
  for (const meta of state.tokens_meta) if (meta?.delimiters) pair(state, meta.delimiters)
  return false
}

export const gfmStrikethrough = (md: MarkdownIt): void => {
  md.inline.ruler.at('strikethrough', tokenize)
  md.inline.ruler2.at('strikethrough', postProcess)
}
