// markdown-it plugin: remark-directive's block syntax. A container (`:::name[label]{attrs}` …
// `:::`) holds blocks and ends at the first line of at least as many colons, so an outer
// container closes before inner ones (write `::::` outside `:::` to nest), even inside fenced
// code, as micromark does. A leaf (`::name[label]{attrs}`) is one line. Both interrupt paragraphs.
// Tokens: `container_directive_open|close` and `leaf_directive_open|close` with
// `meta: { name, attributes }`, and `directive_label_open|close` around the label's inline token.
import type MarkdownIt from 'markdown-it'
import type { StateBlock } from 'markdown-it'
import { isSpace } from 'markdown-it/lib/common/utils.mjs'
import { type DirectiveHead, scanDirectiveHead } from './directive-syntax.ts'

const COLON = 0x3a

const countColons = (src: string, pos: number, max: number) => {
  let end = pos
  while (end < max && src.charCodeAt(end) === COLON) end++
  return end - pos
}

const onlySpaceFrom = (src: string, pos: number, max: number) => {
  for (let i = pos; i < max; i++) if (!isSpace(src.charCodeAt(i))) return false
  return true
}

/** The directive opening `line`, with its colon count, or undefined. */
const readOpening = (state: StateBlock, line: number) => {
  if (state.sCount[line] - state.blkIndent >= 4) return undefined
  const pos = state.bMarks[line] + state.tShift[line]
  const max = state.eMarks[line]
  if (state.src.charCodeAt(pos) !== COLON) return undefined
  const colons = countColons(state.src, pos, max)
  const head = scanDirectiveHead(state.src, pos + colons, max, false)
  if (!head || !onlySpaceFrom(state.src, head.end, max)) return undefined
  return { colons, head }
}

const pushLabel = (state: StateBlock, head: DirectiveHead, line: number) => {
  if (head.label === undefined) return
  state.push('directive_label_open', 'p', 1).map = [line, line + 1]
  const inline = state.push('inline', '', 0)
  inline.content = head.label
  inline.map = [line, line + 1]
  inline.children = []
  state.push('directive_label_close', 'p', -1)
}

const isClosingFence = (state: StateBlock, line: number, colons: number) => {
  if (state.sCount[line] - state.blkIndent >= 4) return false
  const pos = state.bMarks[line] + state.tShift[line]
  const max = state.eMarks[line]
  const count = countColons(state.src, pos, max)
  return count >= colons && onlySpaceFrom(state.src, pos + count, max)
}

const container = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => {
  const opening = readOpening(state, startLine)
  if (!opening || opening.colons < 3) return false
  if (silent) return true
  let nextLine = startLine + 1
  let closed = false
  for (; nextLine < endLine; nextLine++) {
    const pos = state.bMarks[nextLine] + state.tShift[nextLine]
    // A less indented line ends the list item holding the container, as it ends a fence.
    if (pos < state.eMarks[nextLine] && state.sCount[nextLine] < state.blkIndent) break
    if (isClosingFence(state, nextLine, opening.colons)) {
      closed = true
      break
    }
  }
  const oldParent = state.parentType
  const oldLineMax = state.lineMax
  const open = state.push('container_directive_open', 'div', 1)
  open.markup = ':'.repeat(opening.colons)
  open.meta = { name: opening.head.name, attributes: opening.head.attributes }
  open.map = [startLine, closed ? nextLine + 1 : nextLine]
  pushLabel(state, opening.head, startLine)
  // The content is parsed as blocks of its own, which cannot run past the closing fence.
  state.parentType = 'container' as typeof state.parentType
  state.lineMax = nextLine
  state.md.block.tokenize(state, startLine + 1, nextLine)
  state.parentType = oldParent
  state.lineMax = oldLineMax
  state.push('container_directive_close', 'div', -1).markup = open.markup
  state.line = closed ? nextLine + 1 : nextLine
  return true
}

const leaf = (state: StateBlock, startLine: number, _endLine: number, silent: boolean) => {
  const opening = readOpening(state, startLine)
  if (opening?.colons !== 2) return false
  if (silent) return true
  const open = state.push('leaf_directive_open', 'div', 1)
  open.meta = { name: opening.head.name, attributes: opening.head.attributes }
  open.map = [startLine, startLine + 1]
  if (opening.head.label !== undefined) {
    const inline = state.push('inline', '', 0)
    inline.content = opening.head.label
    inline.map = [startLine, startLine + 1]
    inline.children = []
  }
  state.push('leaf_directive_close', 'div', -1)
  state.line = startLine + 1
  return true
}

export const directiveBlocks = (md: MarkdownIt): void => {
  const alt = { alt: ['paragraph', 'reference', 'blockquote', 'list'] }
  md.block.ruler.before('fence', 'container_directive', container, alt)
  md.block.ruler.before('fence', 'leaf_directive', leaf, alt)
}
