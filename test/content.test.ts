// The repository's own documentation builds cleanly and has every guide the spec names.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { build } from '../cli/build.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

test('content/ builds with no error or warning, and every guide and the components page exist', async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'keyward-content-'))
  t.teardown(() => rmSync(out, { recursive: true, force: true }))
  const result = await build({ root, outDir: out, workers: 1 })
  t.deepEqual(result.errors, [])
  t.deepEqual(result.warnings, [])
  for (const guide of [
    'user',
    'admin',
    'hosting',
    'api',
    'contribute',
    'development',
    'components',
  ])
    t.true(existsSync(join(out, 'docs', guide, 'index.html')), guide)
  const components = readFileSync(join(out, 'docs/components/index.html'), 'utf8')
  for (const marker of [
    'class="admonition admonition--note"',
    'class="code-block"',
    'role="tablist"',
    'class="quote"',
    'class="video"',
    'class="provider-card"',
    'class="hash-link"',
  ])
    t.true(components.includes(marker), marker)
  // The API reference: every operation of the server's document has its section on the page.
  const reference = readFileSync(join(out, 'docs/api/index.html'), 'utf8')
  const document = JSON.parse(readFileSync(join(out, 'docs/api/openapi.json'), 'utf8'))
  const layout = JSON.parse(readFileSync(join(out, 'docs/api/layout.json'), 'utf8'))
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item as object).map((method) => `${method} ${path}`),
  )
  t.true(operations.length > 100)
  const anchors = layout.tags.flatMap((tag: { operations: { anchor: string }[] }) =>
    tag.operations.map((op) => op.anchor),
  )
  t.is(anchors.length, operations.length)
  for (const anchor of anchors) t.true(reference.includes(`id="${anchor}"`), anchor)
  const sitemap = readFileSync(join(out, 'docs/sitemap.xml'), 'utf8')
  t.true(sitemap.includes('<loc>https://keyward.example/docs/api/</loc>'))
  t.false(sitemap.includes('/docs/components/'))
  t.false(sitemap.includes('/docs/development/'))
  t.true(sitemap.includes('<loc>https://keyward.example/docs/admin/</loc>'))
  for (const unlisted of ['contribute/security/bug-bounty', 'hosting/configure/database/mysql']) {
    t.true(
      readFileSync(join(out, 'docs', unlisted, 'index.html'), 'utf8').includes('noindex'),
      unlisted,
    )
    t.false(sitemap.includes(unlisted))
  }
})
