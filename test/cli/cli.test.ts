// The `docs` executable: help for every command, exit codes and one-line errors.
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { createSite, doc } from '../helpers/site.ts'

const bin = fileURLToPath(new URL('../../bin/docs.js', import.meta.url))
const docs = (args: string[], cwd?: string) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000, cwd })

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

test('the CLI is bundled once and the bundle reused while its sources stay the same', (t) => {
  t.is(docs(['--help']).status, 0)
  const repo = fileURLToPath(new URL('../../', import.meta.url))
  const cache = join(
    repo,
    'node_modules/.cache/keyward',
    `docs-cli-${createHash('sha256').update(repo).digest('hex').slice(0, 8)}`,
  )
  // Rewritten each time esbuild makes a bundle.
  const made = statSync(join(cache, 'inputs.json')).mtimeMs
  t.is(docs(['--help']).status, 0)
  t.is(statSync(join(cache, 'inputs.json')).mtimeMs, made)
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

/** A site that imports the config helpers by name, as a site outside this repository does. */
const outsideSite = (t: import('ava').ExecutionContext) =>
  createSite(
    t,
    { 'guide/index.md': doc({ title: 'Guide' }, 'Hello from outside.\n') },
    {
      files: {
        'content/site.config.ts': `import { defineConfig } from 'keyward/docs'\n\nexport default defineConfig({ title: 'Outside', url: 'https://outside.test', logo: { src: '/docs/logo.svg', alt: 'Logo' }, navbar: { items: [] }, footer: { copyright: 'c' } })\n`,
        'content/sidebars.ts': `import { defineSidebars } from 'keyward/docs'\n\nexport default defineSidebars({ guide: ['guide/index'] })\n`,
        'content/static/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      },
    },
  )

test('build --root: a site folder outside the repository, run from that folder', (t) => {
  const site = outsideSite(t)
  const run = docs(['--root', site.root, 'build', '--out', site.out], site.root)
  t.is(run.status, 0, run.stderr)
  t.true(site.read('docs/guide/index.html').includes('Hello from outside.'))
  const js = readdirSync(join(site.out, 'docs/assets/js'))
  t.true(
    js.some((file) => file.startsWith('main.')),
    'the client bundle resolves its own modules',
  )
})

test('serve --root: the dev server builds and serves a site folder outside the repository', async (t) => {
  const site = outsideSite(t)
  const child = spawn(process.execPath, [bin, '--root', site.root, 'serve', '--port', '0'], {
    cwd: site.root,
  })
  t.teardown(() => {
    child.kill()
  })
  let output = ''
  child.stderr.on('data', (chunk) => {
    output += chunk
  })
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk
      const found = output.match(/live reload at (http:\/\/\S+)/)
      if (found) resolve(found[1])
    })
    child.once('exit', () => reject(new Error(`serve exited: ${output}`)))
  })
  const page = await fetch(new URL('guide/', url))
  t.is(page.status, 200)
  t.true((await page.text()).includes('Hello from outside.'))
})
