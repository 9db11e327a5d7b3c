// markdown-it plugin: footnote calls (`[^label]`) match their definition whatever the case and
// spacing of the label, as in GFM (markdown-it-footnote matches labels exactly). Replaces the
// plugin's `footnote_ref` rule; the `footnote_ref` token keeps only `meta.label`.
import type MarkdownIt from 'markdown-it'
import type { StateInline } from 'markdown-it'
import { normalizeIdentifier } from './mdast-from-inline.ts'

/** Normalized labels of the page's definitions, which markdown-it-footnote files in env. */
const definedLabels = (env: {
  footnotes?: { refs?: Record<string, number> }
  footnoteLabels?: Set<string>
}) => {
  env.footnoteLabels ??= new Set(
    Object.keys(env.footnotes?.refs ?? {}).map((key) => normalizeIdentifier(key.slice(1))),
  )
  return env.footnoteLabels
}

const footnoteRef = (state: StateInline, silent: boolean): boolean => {
  const { src, pos: start, posMax: max } = state
  if (src.charCodeAt(start) !== 0x5b || src.charCodeAt(start + 1) !== 0x5e) return false
  let end = start + 2
  for (; end < max; end++) {
    const c = src.charCodeAt(end)
    if (c === 0x20 || c === 0x0a) return false
    if (c === 0x5d) break
  }
  if (end === start + 2 || end >= max) return false
  const label = src.slice(start + 2, end)
  if (!definedLabels(state.env).has(normalizeIdentifier(label))) return false
  if (!silent) state.push('footnote_ref', '', 0).meta = { label }
  state.pos = end + 1
  return true
}

export const footnoteReferences = (md: MarkdownIt): void => {
  md.inline.ruler.at('footnote_ref', footnoteRef)
}
