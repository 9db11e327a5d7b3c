// The browser bundle: the bootstrap that a page runs before its first paint stays within 10 KB
// gzipped and holds no framework; everything a doc page loads before the first interaction
// (the bootstrap, then React and the islands it imports when idle) stays within 90 KB gzipped;
// and nothing of the Markdown pipeline, the highlighter or the server renderer ships.
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import test from 'ava'
import { bundleClient } from '../../cli/output/assets.ts'

// Output paths are relative to this folder; nothing is written.
const bundled = bundleClient(join(tmpdir(), 'keyward-bundle'), false)

const gzipped = (files: Map<string, Uint8Array>, paths: string[]) =>
  paths.map((path) => gzipSync(files.get(path)!, { level: 9 }).length).reduce((a, b) => a + b, 0)

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB gzipped`

test('the bootstrap before first paint weighs at most 10 KB gzipped and holds no React', async (t) => {
  const { initial, js, files } = await bundled
  t.true(initial.includes(js))
  const bytes = gzipped(files, initial)
  t.true(bytes <= 10 * 1024, kb(bytes))
  for (const path of initial)
    t.false(
      new TextDecoder().decode(files.get(path)!).includes('react.transitional.element'),
      `${path} holds React`,
    )
  t.log(`${initial.length} files, ${kb(bytes)} before first paint`)
})

test('what a page loads before the first interaction, React included, weighs at most 90 KB gzipped', async (t) => {
  const { initial, app, files } = await bundled
  t.true(app.length > 0, 'the React part is a chunk of its own')
  const bytes = gzipped(files, [...initial, ...app])
  t.true(bytes <= 90 * 1024, kb(bytes))
  t.log(`${initial.length + app.length} files, ${kb(bytes)} before the first interaction`)
})

test('the browser runs React DOM and gets no Markdown pipeline, highlighter or server renderer', async (t) => {
  const { modules } = await bundled
  const shipped = (name: string) => modules.some((path) => path.includes(`node_modules/${name}/`))
  for (const name of [
    'unified',
    'remark-parse',
    'micromark',
    'rehype-raw',
    'hast-util-to-html',
    'lowlight',
    'highlight.js',
    'preact',
    'zod',
  ])
    t.false(shipped(name), `${name} is bundled`)
  t.true(shipped('react-dom'), 'islands hydrate with react-dom/client')
  t.true(
    modules.every((path) => !path.includes('react-dom/cjs/react-dom-server')),
    'no server renderer',
  )
  t.true(shipped('minisearch'), 'search ships (on demand)')
})
