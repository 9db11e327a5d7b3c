// Full builds of small sites: routes, output files, sidebars, unlisted pages, sitemap, checks.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { build } from '../../cli/build.ts'
import { SiteBuilder } from '../../cli/builder/site-builder.ts'
import { BuildFailedError } from '../../cli/errors.ts'
import { createSite, doc } from '../helpers/site.ts'

const guide = {
  'guide/index.md': doc(
    { title: 'Guide' },
    'Welcome. Read [setup](./setup/index.md) then [usage](./usage.md#options).\n',
  ),
  'guide/usage.md': doc(
    { title: 'Usage', sidebar_position: 2, description: 'How to use it.' },
    '## Options\n\n### Port\n\n#### Deep\n',
  ),
  'guide/setup/index.md': doc({ title: 'Setup', sidebar_position: 1 }),
  'guide/setup/linux.md': doc({ title: 'Linux', sidebar_label: 'On Linux' }),
  'guide/secret.md': doc({ title: 'Secret', unlisted: true }),
  'components/index.md': doc({ title: 'Components' }),
}

test('every doc gets index.html and page-data.json at its trailing-slash route', async (t) => {
  const site = createSite(t, guide)
  const result = await build({ root: site.root, outDir: site.out, workers: 1 })
  t.deepEqual(result.errors, [])
  for (const route of [
    'guide',
    'guide/usage',
    'guide/setup',
    'guide/setup/linux',
    'guide/secret',
    'components',
  ]) {
    t.true(existsSync(join(site.out, 'docs', route, 'index.html')), route)
    t.is(JSON.parse(site.read(`docs/${route}/page-data.json`)).route, `/docs/${route}/`)
  }
  t.true(site.read('docs/index.html').includes('<h1>Test Docs</h1>'), 'landing page')
  t.true(site.read('docs/404.html').includes('Page Not Found'))
  t.true(existsSync(join(site.out, 'docs/img/logo.svg')), 'static files copied')
})

test('assets get content-hashed names and pages link to them', async (t) => {
  const site = createSite(t, guide)
  await build({ root: site.root, outDir: site.out, workers: 1 })
  const css = readdirSync(join(site.out, 'docs/assets/css')).find((file) =>
    file.startsWith('styles.'),
  )!
  const js = readdirSync(join(site.out, 'docs/assets/js')).find((file) => file.startsWith('main.'))!
  t.regex(css, /^styles\.[0-9a-f]{8}\.css$/)
  t.regex(js, /^main\.[0-9A-Z]{8}\.js$/)
  const html = site.read('docs/guide/index.html')
  t.true(html.includes(`href="/docs/assets/css/${css}"`))
  t.true(html.includes(`src="/docs/assets/js/${js}"`))
})

test('relative .md links resolve to routes; headings get ids and the TOC covers h2-h3', async (t) => {
  const site = createSite(t, guide)
  await build({ root: site.root, outDir: site.out, workers: 1 })
  t.true(
    site.read('docs/guide/index.html').includes('<a href="/docs/guide/usage/#options">usage</a>'),
  )
  const usage = JSON.parse(site.read('docs/guide/usage/page-data.json'))
  t.deepEqual(
    usage.toc.map((h: { id: string }) => h.id),
    ['options', 'port'],
  )
  t.is(usage.description, 'How to use it.')
})

test('sidebar order, labels, breadcrumbs and previous/next follow the sidebar', async (t) => {
  const site = createSite(t, guide)
  await build({ root: site.root, outDir: site.out, workers: 1 })
  const linux = JSON.parse(site.read('docs/guide/setup/linux/page-data.json'))
  t.is(linux.sidebarId, 'guide')
  t.deepEqual(linux.breadcrumbs, [{ label: 'Setup', href: '/docs/guide/setup/' }])
  t.deepEqual(linux.previous, { label: 'Setup', href: '/docs/guide/setup/' })
  t.deepEqual(linux.next, { label: 'Usage', href: '/docs/guide/usage/' })
  const html = site.read('docs/guide/setup/linux/index.html')
  const sidebar = html.slice(
    html.indexOf('<nav class="sidebar"'),
    html.indexOf('</nav>', html.indexOf('<nav class="sidebar"')),
  )
  t.true(sidebar.includes('aria-current="page">On Linux</a>'))
  t.true(sidebar.indexOf('Setup') < sidebar.indexOf('Usage'), 'sidebar_position orders items')
  t.true(sidebar.includes('<details open="">'), 'the category holding the page starts open')
  t.false(sidebar.includes('Secret'))
})

test('unlisted pages: banner and noindex, absent from sidebars and sitemap', async (t) => {
  const site = createSite(t, guide)
  await build({ root: site.root, outDir: site.out, workers: 1 })
  const html = site.read('docs/guide/secret/index.html')
  t.true(html.includes('<meta name="robots" content="noindex, nofollow"/>'))
  t.true(html.includes('This page is unlisted.'))
  t.false(site.read('docs/guide/index.html').includes('/docs/guide/secret/'))
  t.false(site.read('docs/guide/usage/index.html').includes('/docs/guide/secret/'))
  t.false(site.read('docs/sitemap.xml').includes('secret'))
})

test('sitemap lists listed pages and leaves out the ignore patterns', async (t) => {
  const site = createSite(t, {
    ...guide,
    'development/index.md': doc({ title: 'Dev' }),
    'development/a/b.md': doc({ title: 'B' }),
  })
  await build({ root: site.root, outDir: site.out, workers: 1 })
  const locs = [...site.read('docs/sitemap.xml').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
  t.deepEqual(locs, [
    'https://docs.test/docs/',
    'https://docs.test/docs/guide/',
    'https://docs.test/docs/guide/setup/',
    'https://docs.test/docs/guide/setup/linux/',
    'https://docs.test/docs/guide/usage/',
  ])
})

test('broken links fail the build, listing every one with file and line', async (t) => {
  const site = createSite(t, {
    ...guide,
    'guide/bad.md': doc(
      { title: 'Bad' },
      'A [gone](./gone.md).\n\nAn [absolute](/docs/nowhere/).\n\nA [relative](../missing/).\n\n![pic](./nope.png)\n',
    ),
  })
  const error = await t.throwsAsync(build({ root: site.root, outDir: site.out, workers: 1 }), {
    instanceOf: BuildFailedError,
  })
  t.deepEqual(
    error.diagnostics.map((d) => `${d.file}:${d.line}: ${d.message}`).sort(),
    [
      'content/docs/guide/bad.md:11: broken image "./nope.png": file not found',
      'content/docs/guide/bad.md:5: broken Markdown link "./gone.md": no such doc',
      'content/docs/guide/bad.md:7: broken link to /docs/nowhere/',
      'content/docs/guide/bad.md:9: broken link to /docs/guide/missing/',
    ].sort(),
  )
  t.false(existsSync(join(site.out, 'docs/guide/index.html')), 'nothing is written on error')
})

test('broken anchors and duplicate routes only warn', async (t) => {
  const site = createSite(t, {
    ...guide,
    'guide/anchors.md': doc(
      { title: 'Anchors' },
      'To [nowhere](./usage.md#nope) and [here](#missing).\n',
    ),
    'guide/copy.md': doc({ title: 'Copy', slug: 'usage' }),
  })
  const result = await build({ root: site.root, outDir: site.out, workers: 1 })
  t.deepEqual(
    result.warnings.map((w) => `${w.file}: ${w.message}`),
    [
      'content/docs/guide/usage.md: duplicate route /docs/guide/usage/, also produced by content/docs/guide/copy.md; this file wins',
      'content/docs/guide/anchors.md: broken anchor in link to /docs/guide/usage/#nope',
      'content/docs/guide/anchors.md: broken anchor in link to /docs/guide/anchors/#missing',
    ],
  )
  t.true(existsSync(join(site.out, 'docs/guide/anchors/index.html')))
})

test('images next to a doc are copied under hashed names', async (t) => {
  const site = createSite(
    t,
    { ...guide, 'guide/pic.md': doc({ title: 'Pic' }, '![A diagram](./img/diagram.png)\n') },
    { files: { 'content/docs/guide/img/diagram.png': 'PNGDATA' } },
  )
  await build({ root: site.root, outDir: site.out, workers: 1 })
  const html = site.read('docs/guide/pic/index.html')
  const src = /<img src="([^"]+)" alt="A diagram"/.exec(html)?.[1]
  t.regex(src ?? '', /^\/docs\/assets\/img\/diagram\.[0-9a-f]{8}\.png$/)
  t.is(site.read(src!.slice(1)), 'PNGDATA')
})

test('slug and id front matter change the route and the doc id', async (t) => {
  const site = createSite(
    t,
    {
      'guide/index.md': doc({ title: 'Guide' }),
      'guide/long-file-name.md': doc({ title: 'Short', slug: '/short', id: 'short-id' }),
    },
    { sidebars: { guide: ['guide/index', 'guide/short-id'] } },
  )
  await build({ root: site.root, outDir: site.out, workers: 1 })
  t.true(existsSync(join(site.out, 'docs/short/index.html')))
  t.true(site.read('docs/guide/index.html').includes('href="/docs/short/"'))
})

test('an unknown doc id in the sidebars file is an error naming the file', async (t) => {
  const site = createSite(t, guide, { sidebars: { guide: ['guide/index', 'guide/nope'] } })
  const error = await t.throwsAsync(build({ root: site.root, outDir: site.out, workers: 1 }), {
    instanceOf: BuildFailedError,
  })
  t.is(error.message, 'content/sidebars.ts: sidebar "guide": unknown doc id "guide/nope"')
})

test('a render pool produces the same site as a single thread', async (t) => {
  const docs: Record<string, string> = { 'guide/index.md': doc({ title: 'Guide' }) }
  for (let i = 0; i < 160; i++)
    docs[`guide/p${i}.md`] = doc(
      { title: `Page ${i}` },
      `## Part\n\nSee [next](./p${(i + 1) % 160}.md#part).\n\n\`\`\`js\nlet x = ${i}\n\`\`\`\n`,
    )
  const site = createSite(t, docs)
  const single = await new SiteBuilder({
    root: site.root,
    outDir: join(site.root, 'one'),
    workers: 1,
    cacheDir: false,
  }).buildAll()
  const pooled = await new SiteBuilder({
    root: site.root,
    outDir: join(site.root, 'two'),
    workers: 2,
    cacheDir: false,
  }).buildAll()
  t.is(pooled.routes.length, single.routes.length)
  for (const route of ['docs/guide/p0', 'docs/guide/p159']) {
    const read = (dir: string) => site.read(`../${dir}/${route}/index.html`)
    t.is(read('two'), read('one'))
  }
})
