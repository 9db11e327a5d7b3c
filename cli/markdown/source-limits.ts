// Bounds checked before a page is parsed. remark-parse is CommonMark to the letter, and some
// inputs cost it time that grows with the square of their size or more: blocks nested hundreds
// of levels deep (block quotes, lists, directive containers; 500 nested list items take about
// 10 s, 1,000 overflow the stack) and paragraphs holding thousands of unmatched delimiters. No
// page people write comes near these bounds; a page past one is refused with an error on the
// line where it crosses it, instead of hanging the build.

/** Block quotes, list items and indentation (two columns a level) on one line. */
export const MAX_BLOCK_DEPTH = 24
/** Directive containers open at once. */
export const MAX_CONTAINER_DEPTH = 12
/** Emphasis, strikethrough, bracket, brace and colon characters in one paragraph or table row. */
export const MAX_DELIMITERS = 2_000

const FENCE = /^ {0,3}(`{3,}|~{3,})/
/** One block quote marker or list marker at the start of what is left of a line. */
const CONTAINER_MARKER = /^[ \t]*(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]?/
const CONTAINER_OPEN = /^[ \t]*:{3,}[A-Za-z]/
const CONTAINER_CLOSE = /^[ \t]*:{3,}[ \t]*$/
const DELIMITERS = /[*_~[\]{}:]/g

export interface LimitProblem {
  line: number
  reason: string
}

const blockDepth = (line: string): number => {
  let depth = 0
  let rest = line
  for (let marker = CONTAINER_MARKER.exec(rest); marker; marker = CONTAINER_MARKER.exec(rest)) {
    depth++
    rest = rest.slice(marker[0].length)
    if (depth > MAX_BLOCK_DEPTH) return depth
  }
  const indent = /^[ \t]*/.exec(line)![0].replaceAll('\t', '    ').length
  return depth + Math.floor(indent / 2)
}

/** The first bound `source` crosses, if any. */
export const checkSourceLimits = (source: string): LimitProblem | undefined => {
  const lines = source.split('\n')
  let fence: string | undefined
  let containers = 0
  let delimiters = 0
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const open = FENCE.exec(line)
    if (fence) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length) fence = undefined
      continue
    }
    if (open) {
      fence = open[1]
      continue
    }
    const at = i + 1
    if (blockDepth(line) > MAX_BLOCK_DEPTH)
      return { line: at, reason: `blocks nested more than ${MAX_BLOCK_DEPTH} levels deep` }
    if (CONTAINER_OPEN.test(line)) {
      if (++containers > MAX_CONTAINER_DEPTH)
        return { line: at, reason: `more than ${MAX_CONTAINER_DEPTH} directive containers open` }
      continue
    }
    if (CONTAINER_CLOSE.test(line)) {
      containers = Math.max(0, containers - 1)
      continue
    }
    // A blank line ends a paragraph; each table row is read on its own.
    if (!line.trim() || line.trimStart().startsWith('|')) delimiters = 0
    delimiters += line.match(DELIMITERS)?.length ?? 0
    if (delimiters > MAX_DELIMITERS)
      return {
        line: at,
        reason: `more than ${MAX_DELIMITERS} emphasis, bracket or colon characters in one paragraph`,
      }
  }
  return undefined
}
