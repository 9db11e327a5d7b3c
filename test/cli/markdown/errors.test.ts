// Problems in Markdown are reported with their line, as errors (fatal) or warnings.
import test from 'ava'
import { render } from '../../helpers/markdown.ts'

const problems = (markdown: string) =>
  render(markdown).file.messages.map(
    (m) => `${m.line}:${m.fatal ? 'error' : 'warning'}: ${m.reason}`,
  )

test('an unknown container or leaf directive is an error on its line', (t) => {
  t.deepEqual(problems('Intro\n\n:::foo\nbody\n:::\n\n::bar{x=1}\n'), [
    '3:error: unknown directive ":::foo"',
    '7:error: unknown directive "::bar"',
  ])
})

test('a tab outside a tab set, and a tab set holding other content, are errors', (t) => {
  t.deepEqual(problems(':::tab[Alone]\nx\n:::\n'), [
    '1:error: a ":::tab" must be inside a "::::tabs" container',
  ])
  t.deepEqual(problems('::::tabs\nloose paragraph\n:::tab[A]\nx\n:::\n::::\n'), [
    '1:error: "::::tabs" must contain only ":::tab[Label]" items',
  ])
})

test('a video from an unsupported address is an error', (t) => {
  t.deepEqual(problems('\n::video{src="http://example.com/clip.avi"}\n'), [
    '2:error: video: "http://example.com/clip.avi" is not a YouTube, Vimeo or https .mp4 address',
  ])
})

test('a provider card without title or href is an error', (t) => {
  t.deepEqual(problems('::providerCard{icon="/x.svg"}\n'), [
    '1:error: providerCard: needs title and href attributes',
  ])
})

test('a Markdown link to a missing doc is an error on its line, in links and provider cards', (t) => {
  t.deepEqual(
    problems(
      'Fine [a](./a.md).\n\nBroken [b](./missing.md).\n\n::providerCard{title="X" href="./missing.md"}\n',
    ),
    [
      '3:error: broken Markdown link "./missing.md": no such doc',
      '5:error: broken Markdown link "./missing.md": no such doc',
    ],
  )
})

test('relative .md links become routes and are recorded with their lines for the link check', (t) => {
  const { html, file } = render('See [a](./a.md#part).\n\n[ref]: ./b.md\n\nAnd [ref].\n')
  t.true(html.includes('<a href="/docs/a/#part">a</a>'))
  t.true(html.includes('<a href="/docs/b/">ref</a>'))
  t.deepEqual(file.data.links, [
    { url: '/docs/a/#part', line: 1 },
    { url: '/docs/b/', line: 3 },
  ])
})

test('duplicate explicit heading ids warn', (t) => {
  t.deepEqual(problems('## A {#same}\n\n## B {#same}\n'), [
    '3:warning: duplicate heading id "same"',
  ])
})

test('headings feed the table of contents and the page ids; a leading h1 becomes the title', (t) => {
  const { file } = render('# Title\n\n## One\n\n### Two\n\n#### Three\n')
  t.is(file.data.h1, 'Title')
  t.deepEqual(file.data.headings, [
    { id: 'one', text: 'One', level: 2 },
    { id: 'two', text: 'Two', level: 3 },
    { id: 'three', text: 'Three', level: 4 },
  ])
  t.deepEqual(file.data.ids, ['one', 'two', 'three'])
})
