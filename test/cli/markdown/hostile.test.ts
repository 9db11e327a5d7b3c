// A page is author content, but deep nesting or thousands of unmatched delimiters must not hang
// the build or overflow the stack: remark-parse's time grows faster than the input for these, so
// a page past the bounds of cli/markdown/source-limits.ts is refused with an error on its line,
// and a page just inside them renders in bounded time.
import test from 'ava'
import {
  MAX_BLOCK_DEPTH,
  MAX_CONTAINER_DEPTH,
  MAX_DELIMITERS,
} from '../../../cli/markdown/source-limits.ts'
import { render } from '../../helpers/markdown.ts'

const timed = (markdown: string) => {
  const started = performance.now()
  const rendered = render(markdown)
  return { ...rendered, ms: performance.now() - started }
}

const errors = (file: ReturnType<typeof render>['file']) =>
  file.messages.filter((m) => m.fatal).map((m) => `${m.line}: ${m.reason}`)

const nestedLists = (depth: number) =>
  Array.from({ length: depth }, (_, i) => `${'  '.repeat(i)}- item`).join('\n')
const nestedContainers = (depth: number) =>
  `${Array.from({ length: depth }, (_, i) => `${':'.repeat(depth + 3 - i)}note`).join('\n')}\nx\n`

const REFUSED: Record<string, [markdown: string, line: number, reason: RegExp]> = {
  'block quotes': [`${'>'.repeat(10_000)} deep\n`, 1, /nested more than/],
  'nested lists': [nestedLists(3_000), MAX_BLOCK_DEPTH + 1, /nested more than/],
  'list markers on one line': [`${'- '.repeat(10_000)}x\n`, 1, /nested more than/],
  'nested containers': [nestedContainers(1_000), MAX_CONTAINER_DEPTH + 1, /containers open/],
  emphasis: [`${'*'.repeat(20_000)}a${'*'.repeat(20_000)}`, 1, /in one paragraph/],
  'strikethrough and links': [`${'~~['.repeat(5_000)}a${'](x)~~'.repeat(5_000)}`, 1, /paragraph/],
  brackets: [`${'['.repeat(20_000)}a${']'.repeat(20_000)}`, 1, /in one paragraph/],
  'unclosed text directive labels': [':a['.repeat(10_000), 1, /in one paragraph/],
  'unclosed attributes': [`:a{b='x' `.repeat(5_000), 1, /in one paragraph/],
  'delimiters over many lines': [
    `${'*a\n'.repeat(MAX_DELIMITERS + 1)}`,
    MAX_DELIMITERS + 1,
    /paragraph/,
  ],
}

for (const [name, [markdown, line, reason]] of Object.entries(REFUSED)) {
  test(`hostile input is refused with an error on its line, at once: ${name}`, (t) => {
    const { html, file, ms } = timed(markdown)
    t.is(html, '')
    const [error, ...more] = errors(file)
    t.deepEqual(more, [])
    t.regex(error, reason)
    t.true(error.startsWith(`${line}: `), error)
    // The check alone runs: milliseconds, even on a loaded machine.
    t.true(ms < 2_000, `${ms.toFixed(0)} ms`)
  })
}

const delimiterRun = Math.floor((MAX_DELIMITERS - 2) / 2)
const ACCEPTED: Record<string, string> = {
  'lists at the depth bound': nestedLists(MAX_BLOCK_DEPTH),
  'containers at the depth bound': nestedContainers(MAX_CONTAINER_DEPTH),
  'emphasis at the delimiter bound': `${'*'.repeat(delimiterRun)}a${'*'.repeat(delimiterRun)}`,
  'brackets at the delimiter bound': `${'['.repeat(delimiterRun)}a${']'.repeat(delimiterRun)}`,
  // Each table row and each paragraph is counted on its own.
  'many delimiters over many paragraphs and rows': `${'*a* [b](c)\n\n'.repeat(400)}| a | b |\n|---|---|\n${'| *x* | [y](z) |\n'.repeat(400)}`,
  'deep indentation inside fenced code': `\`\`\`yaml\n${Array.from({ length: 100 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n')}\n\`\`\`\n`,
}

for (const [name, markdown] of Object.entries(ACCEPTED)) {
  test(`input inside the bounds renders in bounded time: ${name}`, (t) => {
    const { html, file, ms } = timed(markdown)
    t.deepEqual(errors(file), [])
    t.true(html.length > 0)
    // Under a second on an idle machine; the bound leaves room for a loaded one.
    t.true(ms < 5_000, `${ms.toFixed(0)} ms`)
  })
}
