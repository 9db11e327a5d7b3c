// The browser bundle: what a doc page loads before any interaction stays within 60 KB gzipped,
// and nothing of the Markdown pipeline, the highlighter or the server renderer ships to it.
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import test from 'ava'
import { bundleClient } from '../../cli/assets.ts'

// Output paths are relative to this folder; nothing is written.
const bundled = bundleClient(join(tmpdir(), 'keyward-bundle'), false)

test('main and the chunks it imports up front weigh at most 60 KB gzipped', async (t) => {
  const { initial, js, files } = await bundled
  t.true(initial.includes(js))
  const bytes = initial
    .map((path) => gzipSync(files.get(path)!, { level: 9 }).length)
    .reduce((a, b) => a + b, 0)
  t.true(bytes <= 60 * 1024, `${(bytes / 1024).toFixed(1)} KB gzipped`)
  t.log(`${initial.length} files, ${(bytes / 1024).toFixed(1)} KB gzipped before interaction`)
})

test('the browser gets no Markdown pipeline, highlighter, server renderer or React DOM', async (t) => {
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
    'react-dom',
    'zod',
  ])
    t.false(shipped(name), `${name} is bundled`)
  t.true(shipped('preact'), 'islands run on preact/compat')
  t.true(shipped('minisearch'), 'search ships (on demand)')
})
