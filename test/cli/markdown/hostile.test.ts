// A page is author content, but deep nesting must not hang the build or overflow the stack:
// markdown-it stops nesting blocks at 100 levels, the mdast conversion inline pairs at 100, and
// text directives are looked for within a bounded span.
import test from 'ava'
import { render } from '../../helpers/markdown.ts'

const HOSTILE: Record<string, string> = {
  'block quotes': `${'>'.repeat(10_000)} deep\n`,
  'nested lists': Array.from({ length: 3_000 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n'),
  'list markers on one line': `${'- '.repeat(10_000)}x\n`,
  'nested containers': `${Array.from({ length: 1_000 }, (_, i) => `${':'.repeat(1_003 - i)}note`).join('\n')}\nx\n`,
  emphasis: `${'*'.repeat(20_000)}a${'*'.repeat(20_000)}`,
  'strikethrough and links': `${'~~['.repeat(5_000)}a${'](x)~~'.repeat(5_000)}`,
  brackets: `${'['.repeat(20_000)}a${']'.repeat(20_000)}`,
  'unclosed text directive labels': ':a['.repeat(10_000),
  'unclosed attributes': `:a{b='x' `.repeat(5_000),
}

for (const [name, markdown] of Object.entries(HOSTILE)) {
  test(`hostile input renders without throwing, in bounded time: ${name}`, (t) => {
    const started = performance.now()
    const { html } = render(markdown)
    const ms = performance.now() - started
    t.true(html.length > 0)
    // About 0.5 s at most on an idle machine; the bound leaves room for a loaded one.
    t.true(ms < 5_000, `${ms.toFixed(0)} ms`)
  })
}
