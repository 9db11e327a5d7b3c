// The `docs` executable: help for every command, exit codes and one-line errors.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { createSite, doc } from '../helpers/site.ts'

const bin = fileURLToPath(new URL('../../bin/docs.js', import.meta.url))
const docs = (args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 })

test('--help describes every command and its options', (t) => {
  const main = docs(['--help'])
  t.is(main.status, 0)
  t.regex(main.stdout, /build \[options\]\s+render content\/ into a static site/)
  t.regex(main.stdout, /serve \[options\]/)
  const build = docs(['build', '--help'])
  t.regex(build.stdout, /-o, --out <dir>\s+output folder \(default: "build"\)/)
  const serve = docs(['serve', '--help'])
  for (const option of ['--port <n>', '--open', '--dir <dir>', '--host <host>'])
    t.true(serve.stdout.includes(option), option)
})

test('build writes the site and exits 0', (t) => {
  const site = createSite(t, { 'guide/index.md': doc({ title: 'Guide' }) })
  const run = docs(['--root', site.root, 'build', '--out', site.out])
  t.is(run.status, 0, run.stderr)
  t.regex(run.stdout, /3 pages written to /, 'the doc, the landing page and the search page')
  t.true(existsSync(join(site.out, 'docs/guide/index.html')))
})

test('a failing build exits 1 with one file:line line per problem and no stack trace', (t) => {
  const site = createSite(t, {
    'guide/index.md': doc({ title: 'Guide', sidebar_position: 'x' }, '[a](./a.md)\n'),
    'guide/b.md': doc({ title: 'B' }, 'Text\n\n[c](./c.md)\n'),
  })
  const run = docs(['--root', site.root, 'build', '--out', site.out])
  t.is(run.status, 1)
  t.deepEqual(run.stderr.trim().split('\n'), [
    'content/docs/guide/b.md:7: broken Markdown link "./c.md": no such doc',
    'content/docs/guide/index.md:3: front matter field "sidebar_position": Invalid input: expected number, received string',
    'content/docs/guide/index.md:6: broken Markdown link "./a.md": no such doc',
    'build failed: 3 error(s)',
  ])
})

test('a bad config is one line naming the file and field', (t) => {
  const site = createSite(
    t,
    {},
    { files: { 'content/site.config.ts': 'export default { title: 1 }\n' } },
  )
  const run = docs(['--root', site.root, 'build'])
  t.is(run.status, 1)
  t.true(run.stderr.startsWith('content/site.config.ts: title: '))
  t.false(run.stderr.includes('    at '))
})

test('bad arguments and unknown commands exit non-zero with a clear line', (t) => {
  const port = docs(['serve', '--port', 'abc'])
  t.not(port.status, 0)
  t.regex(port.stderr, /option '-p, --port <n>' argument 'abc' is invalid\. must be a port number/)
  const unknown = docs(['deploy'])
  t.not(unknown.status, 0)
  t.regex(unknown.stderr, /unknown command 'deploy'/)
})

test('a missing content folder is one line', (t) => {
  const run = docs(['--root', '/nonexistent-keyward', 'build'])
  t.is(run.status, 1)
  t.is(run.stderr.trim(), '/nonexistent-keyward: no content/ folder here')
})
