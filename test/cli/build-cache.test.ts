// The persistent build cache: a second build renders and writes only what changed, its output
// is byte for byte a cold build's, and config or Markdown changes invalidate what they must.

import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { build } from '../../cli/build.ts'
import { pipelineFiles, pipelineKey, templateFiles } from '../../cli/cache/code-keys.ts'
import { baseConfig, createSite, doc, type TestSite } from '../helpers/site.ts'

const docs: Record<string, string> = {
  'guide/index.md': doc({ title: 'Guide' }, 'See [one](./p1.md#part) and ![logo](./logo.svg).\n'),
  'guide/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
}
for (let i = 1; i <= 30; i++)
  docs[`guide/p${i}.md`] = doc(
    { title: `Page ${i}`, sidebar_position: i },
    `## Part\n\nBody of page ${i}, see [the next](./p${(i % 30) + 1}.md#part).\n`,
  )

const bin = fileURLToPath(new URL('../../bin/docs.js', import.meta.url))

/** Every file of a folder, path to bytes. */
const tree = (dir: string) =>
  new Map(
    (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const path = join(entry.parentPath, entry.name)
        return [relative(dir, path), readFileSync(path).toString('base64')] as const
      }),
  )

/** Builds with the cache into `site.out`, and without it into a second folder: same bytes. */
const buildTwice = async (t: import('ava').ExecutionContext, site: TestSite) => {
  const warm = await build({ root: site.root, outDir: site.out, workers: 1 })
  const coldDir = join(site.root, 'cold')
  await build({ root: site.root, outDir: coldDir, workers: 1, cacheDir: false })
  t.deepEqual(tree(site.out), tree(coldDir), 'byte for byte a cold build')
  return warm
}

test('a build with nothing changed takes every page from the cache and writes nothing', async (t) => {
  const site = createSite(t, docs)
  const first = await build({ root: site.root, outDir: site.out, workers: 1 })
  t.is(first.cached, 0)
  const page = join(site.out, 'docs/guide/p3/index.html')
  const written = statSync(page).mtimeMs
  const second = await buildTwice(t, site)
  t.is(second.cached, 31)
  t.is(statSync(page).mtimeMs, written, 'an unchanged page is not written again')
})

test("one page changed: only it is rendered, and the output is a cold build's", async (t) => {
  const site = createSite(t, docs)
  await build({ root: site.root, outDir: site.out, workers: 1 })
  const other = join(site.out, 'docs/guide/p9/index.html')
  const written = statSync(other).mtimeMs
  site.write(
    'content/docs/guide/p3.md',
    doc({ title: 'Page 3', sidebar_position: 3 }, '## Part\n\n## Another part\n\nNew words.\n'),
  )
  const result = await buildTwice(t, site)
  t.is(result.cached, 30)
  t.true(site.read('docs/guide/p3/index.html').includes('New words.'))
  t.is(statSync(other).mtimeMs, written, 'other pages stay as they were')
})

test('a retitled page changes every page whose sidebar shows it; a removed page goes', async (t) => {
  const site = createSite(t, docs)
  await build({ root: site.root, outDir: site.out, workers: 1 })
  site.write('content/docs/guide/p5.md', doc({ title: 'Renamed five', sidebar_position: 5 }))
  rmSync(join(site.root, 'content/docs/guide/p30.md'))
  // The cached page linking to the removed one is checked again, and its link is broken.
  const error = await t.throwsAsync(build({ root: site.root, outDir: site.out, workers: 1 }))
  t.regex(error.message, /p29\.md:8: broken Markdown link "\.\/p30\.md#part"/)
  site.write('content/docs/guide/p29.md', doc({ title: 'Page 29', sidebar_position: 29 }))
  await buildTwice(t, site)
  t.true(site.read('docs/guide/p9/index.html').includes('Renamed five'))
})

test('a link target that moves re-renders the pages linking to it', async (t) => {
  const site = createSite(t, docs)
  await build({ root: site.root, outDir: site.out, workers: 1 })
  site.write('content/docs/guide/p1.md', doc({ title: 'Page 1', slug: 'first' }, '## Part\n'))
  const result = await buildTwice(t, site)
  t.true(site.read('docs/guide/index.html').includes('href="/docs/guide/first/#part"'))
  t.true(result.cached < 31)
})

test('a changed site config rebuilds the pages it shows in; an image edit is picked up', (t) => {
  // Through the CLI: each build is a process of its own, as a config edit meets it.
  const site = createSite(t, docs)
  const docsCli = (out: string, ...extra: string[]) => {
    const run = spawnSync(
      process.execPath,
      [bin, '--root', site.root, 'build', '--out', out, ...extra],
      {
        encoding: 'utf8',
      },
    )
    t.is(run.status, 0, run.stderr)
  }
  docsCli(site.out)
  site.write(
    'content/site.config.ts',
    `export default ${JSON.stringify({ ...baseConfig, title: 'Renamed Docs' })}\n`,
  )
  site.write('content/docs/guide/logo.svg', '<svg xmlns="http://www.w3.org/2000/svg" id="b"/>')
  docsCli(site.out)
  docsCli(join(site.root, 'cold'), '--no-cache')
  t.deepEqual(tree(site.out), tree(join(site.root, 'cold')), 'byte for byte a cold build')
  t.true(site.read('docs/guide/p7/index.html').includes('Renamed Docs'))
  const images = readdirSync(join(site.out, 'docs/assets/img'))
  t.is(images.length, 1, 'the old copy of the image is gone')
  t.true(readFileSync(join(site.out, 'docs/assets/img', images[0]), 'utf8').includes('id="b"'))
})

test('a touched page with the same text is neither rendered nor written again', async (t) => {
  const site = createSite(t, docs)
  await build({ root: site.root, outDir: site.out, workers: 1 })
  const page = join(site.out, 'docs/guide/p3/index.html')
  const written = statSync(page).mtimeMs
  const source = join(site.root, 'content/docs/guide/p3.md')
  utimesSync(source, new Date(), new Date(Date.now() + 60_000))
  const result = await buildTwice(t, site)
  t.is(result.cached, 31)
  t.is(statSync(page).mtimeMs, written)
})

test('a doc whose cached rendering is gone is rendered again; lost search files are made again', async (t) => {
  const site = createSite(t, docs)
  await build({ root: site.root, outDir: site.out, workers: 1 })
  const renderedDir = join(site.root, '.cache/docs/rendered')
  const renderedFiles = readdirSync(renderedDir)
  t.is(renderedFiles.length, 31, 'one file per doc')
  rmSync(join(renderedDir, renderedFiles[0]))
  rmSync(join(site.out, 'docs/assets/search'), { recursive: true })
  const result = await buildTwice(t, site)
  t.is(result.cached, 30)
  t.true(readdirSync(join(site.out, 'docs/assets/search')).length > 0)
})

test('many pages to write with every doc from the cache: render workers write them, as a cold build does', async (t) => {
  const many: Record<string, string> = { 'guide/index.md': doc({ title: 'Guide' }, 'Home.\n') }
  for (let i = 1; i <= 160; i++)
    many[`guide/p${i}.md`] = doc(
      { title: `Page ${i}` },
      `## Part\n\nBody ${i}${i % 40 === 0 ? ', with $x^2$' : ''}.\n`,
    )
  const site = createSite(t, many)
  // The workers keep the renderings in the cache and write the pages from there.
  await build({ root: site.root, outDir: site.out, workers: 2 })
  const coldDir = join(site.root, 'cold')
  await build({ root: site.root, outDir: coldDir, workers: 1, cacheDir: false })
  const cold = tree(coldDir)
  t.deepEqual(tree(site.out), cold, 'the cold build with workers and cache')
  t.regex(site.read('docs/guide/p40/index.html'), /class="katex"/)
  // The output is gone, the cache is not: every page is written again from cached Markdown.
  rmSync(site.out, { recursive: true })
  const warm = await build({ root: site.root, outDir: site.out, workers: 2 })
  t.is(warm.cached, 161)
  t.deepEqual(tree(site.out), cold, 'byte for byte a cold build')
})

test('the cache keys cover the code of every Markdown step, every template and the shared model', (t) => {
  const repo = fileURLToPath(new URL('../../', import.meta.url))
  const below = (dir: string) =>
    (
      readdirSync(join(repo, dir), {
        recursive: true,
        withFileTypes: true,
      }) as import('node:fs').Dirent[]
    )
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
  const pipeline = new Set(pipelineFiles())
  const cli = ['markdown/site-plugins.ts', 'content/front-matter.ts', 'content/content.ts'].map(
    (name) => join(repo, 'cli', name),
  )
  for (const file of [...below('cli/markdown'), ...cli])
    t.true(pipeline.has(file), `${relative(repo, file)} is part of the pipeline key`)
  const templates = new Set(templateFiles())
  for (const file of [...below('templates'), ...below('model')])
    t.true(templates.has(file), `${relative(repo, file)} is part of the templates key`)
  t.true(
    pipeline.has(join(repo, 'package-lock.json')) && templates.has(join(repo, 'package-lock.json')),
  )
})

test('the pipeline key follows the base URL, the folder of the docs and the site plugins', (t) => {
  const key = pipelineKey({ baseUrl: '/docs/', docsDir: '/a', plugins: 'p' })
  t.is(pipelineKey({ baseUrl: '/docs/', docsDir: '/a', plugins: 'p' }), key)
  t.not(pipelineKey({ baseUrl: '/handbook/', docsDir: '/a', plugins: 'p' }), key)
  t.not(pipelineKey({ baseUrl: '/docs/', docsDir: '/b', plugins: 'p' }), key)
  t.not(pipelineKey({ baseUrl: '/docs/', docsDir: '/a', plugins: 'q' }), key)
})
