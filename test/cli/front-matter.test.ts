// Front matter: defaults, and errors that name the file, the line and the field.
import test from 'ava'
import { parseSource } from '../../cli/content/front-matter.ts'

const messages = (source: string) =>
  parseSource('content/docs/a.md', source).diagnostics.map(
    (d) => `${d.file}:${d.line}: ${d.message}`,
  )

test('defaults apply and the body keeps the file line numbers', (t) => {
  const { result } = parseSource('a.md', '---\ntitle: A\n---\n# Body\n')
  t.is(result?.frontMatter.title, 'A')
  t.is(result?.frontMatter.unlisted, false)
  t.is(result?.frontMatter.toc_min_heading_level, 2)
  t.is(result?.frontMatter.toc_max_heading_level, 3)
  t.is(result?.body.split('\n')[3], '# Body')
})

test('a file without front matter is valid', (t) => {
  t.is(parseSource('a.md', '# Only body\n').result?.body, '# Only body\n')
})

test('a wrong type names the field and its line', (t) => {
  t.deepEqual(messages('---\ntitle: A\nsidebar_position: first\n---\n'), [
    'content/docs/a.md:3: front matter field "sidebar_position": Invalid input: expected number, received string',
  ])
})

test('unknown fields are errors, one per field', (t) => {
  t.deepEqual(messages('---\ntitle: A\nsidebar_postion: 1\nauthor: me\n---\n'), [
    'content/docs/a.md:3: front matter field "sidebar_postion": unknown field',
    'content/docs/a.md:4: front matter field "author": unknown field',
  ])
})

test('toc levels must be 2-6 and in order', (t) => {
  t.deepEqual(messages('---\ntoc_min_heading_level: 4\ntoc_max_heading_level: 3\n---\n'), [
    'content/docs/a.md:2: front matter field "toc_min_heading_level": must not be greater than toc_max_heading_level',
  ])
  t.is(messages('---\ntoc_max_heading_level: 7\n---\n').length, 1)
})

test('invalid YAML and a non-mapping are errors on their line', (t) => {
  t.deepEqual(messages('---\ntitle: [unclosed\n---\n').length, 1)
  t.regex(messages('---\ntitle: [unclosed\n---\n')[0], /^content\/docs\/a\.md:\d+: front matter: /)
  t.deepEqual(messages('---\n- a list\n---\n'), [
    'content/docs/a.md:2: front matter: must be a mapping of fields',
  ])
})
