// The render workers of a big build: given the build cache's folder, each keeps the HTML and
// sections of the docs it renders in the cache's files and hands the main thread the rest (the
// pages they write from those files: test/cli/build-cache.test.ts).
import { join } from 'node:path'
import test from 'ava'
import { renderKeyOf } from '../../cli/cache/build-cache.ts'
import { readRendered } from '../../cli/cache/rendered-files.ts'
import { loadDocs } from '../../cli/content/content.ts'
import { Diagnostics } from '../../cli/errors.ts'
import type { RendererInit } from '../../cli/render/doc-deps.ts'
import { createDocRenderer } from '../../cli/render/doc-renderer.ts'
import { RenderPool } from '../../cli/render/render-pool.ts'
import { createSite, doc } from '../helpers/site.ts'

const docs: Record<string, string> = {}
for (let i = 1; i <= 6; i++)
  docs[`guide/p${i}.md`] = doc(
    { title: `Page ${i}` },
    `## Part ${i}\n\nBody of page ${i}, see [the next](./p${(i % 6) + 1}.md#part).\n\n$x^${i}$\n`,
  )

test('with the cache folder, the workers keep each rendering there and hand back the rest', async (t) => {
  const site = createSite(t, docs)
  const docsDir = join(site.root, 'content/docs')
  const sources = loadDocs({ root: site.root, docsDir, baseUrl: '/docs/' }, new Diagnostics())
  const init: RendererInit = {
    docsDir,
    baseUrl: '/docs/',
    routes: sources.map((source) => [source.file, source.route]),
    staticFiles: [],
    plugins: [],
  }
  const renderedDir = join(site.root, 'cache/rendered')
  const pool = RenderPool.spawn(2)
  t.teardown(() => pool.close())
  await pool.init(init, renderedDir)
  const outcomes = await pool.renderMarkdown(sources)

  const renderer = await createDocRenderer(init)
  sources.forEach((source, i) => {
    const expected = renderer.render(source)
    const { stored, ...outcome } = outcomes[i]
    t.is(stored, renderKeyOf(expected), 'the key of the whole rendering')
    const { html, sections } = expected.result.rendered
    t.deepEqual(readRendered(join(renderedDir, stored!)), { html, sections })
    t.regex(html, /Body of page/)
    t.deepEqual(outcome, {
      ...expected,
      result: {
        ...expected.result,
        rendered: { ...expected.result.rendered, html: '', sections: [] },
      },
    })
  })
})
