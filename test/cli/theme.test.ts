// A site's theme: `content/theme/<Component>.tsx` replaces a template component in the pages and
// in the browser bundle, `customCss` adds stylesheets; the site lives outside the repository
// (its own folder, no node_modules), as with `docs --root`.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { build } from '../../cli/build.ts'
import { SiteBuilder } from '../../cli/builder/site-builder.ts'
import { BuildFailedError } from '../../cli/errors.ts'
import { baseConfig, createSite, doc, type Teardown } from '../helpers/site.ts'

const FOOTER = `
import type { ReactNode } from 'react'
import { Note } from './parts/note.tsx'

export function Footer({ site }: { site: { config: { title: string } } }): ReactNode {
  return (
    <footer className="my-footer">
      {site.config.title} <Note text="custom" />
    </footer>
  )
}
`
const NOTE = `export const Note = ({ text }: { text: string }) => <small>{text}</small>\n`

// Pagination is rendered again in the browser on client navigation: the bundle must hold it.
const PAGINATION = `
export function Pagination() {
  return <nav className="pagination-override-marker">own pagination</nav>
}
`

const themedSite = (t: Teardown, docs: Record<string, string> = {}, config: object = {}) =>
  createSite(
    t,
    {
      'guide/index.md': doc({ title: 'Guide' }, 'Hello.\n'),
      'guide/next.md': doc({ title: 'Next' }, 'Again.\n'),
      ...docs,
    },
    {
      config: { ...baseConfig, customCss: ['./theme/custom.css'], ...config },
      files: {
        'content/theme/Footer.tsx': FOOTER,
        'content/theme/parts/note.tsx': NOTE,
        'content/theme/Pagination.tsx': PAGINATION,
        'content/theme/custom.css': '.my-footer { color: rebeccapurple }\n',
      },
    },
  )

const jsBundle = (out: string) =>
  readdirSync(join(out, 'docs/assets/js'))
    .map((name) => readFileSync(join(out, 'docs/assets/js', name), 'utf8'))
    .join('\n')

test('theme/Footer.tsx replaces the footer on every page; its own imports resolve beside it', async (t) => {
  const site = themedSite(t)
  const result = await build({ root: site.root, outDir: site.out, workers: 1 })
  t.deepEqual(result.errors, [])
  for (const page of ['docs/guide/index.html', 'docs/index.html', 'docs/404.html']) {
    const html = site.read(page)
    // React marks where adjacent text parts meet with <!-- -->.
    t.regex(
      html,
      /<footer class="my-footer">Test Docs(<!-- -->)? <small>custom<\/small><\/footer>/,
      page,
    )
    t.false(html.includes('footer__grid'), page)
  }
  t.true(site.read('docs/guide/index.html').includes('own pagination'))
})

test('a dev server and a build in one process each keep their own templates', async (t) => {
  const themed = themedSite(t)
  const plain = createSite(t, { 'guide/index.md': doc({ title: 'Guide' }, 'Hello.\n') })
  const dev = new SiteBuilder({ root: themed.root, outDir: themed.out, workers: 1, dev: true })
  t.teardown(() => dev.close())
  await dev.buildAll()
  // A whole build runs and closes while the dev server stays up.
  await build({ root: plain.root, outDir: plain.out, workers: 1, cacheDir: false })
  for (const page of ['docs/guide/index.html', 'docs/index.html', 'docs/404.html']) {
    t.false(plain.read(page).includes('my-footer'), page)
    t.true(plain.read(page).includes('footer__grid'), page)
  }
  themed.write('content/docs/guide/next.md', doc({ title: 'Next' }, 'Edited.\n'))
  await dev.updateDocs([join(themed.root, 'content/docs/guide/next.md')])
  const edited = themed.read('docs/guide/next/index.html')
  t.true(edited.includes('Edited.'))
  t.true(edited.includes('<footer class="my-footer">'))
})

test('an overridden component that the browser renders again is in the client bundle too', async (t) => {
  const site = themedSite(t)
  await build({ root: site.root, outDir: site.out, workers: 1 })
  const js = jsBundle(site.out)
  t.true(js.includes('pagination-override-marker'))
  t.false(js.includes('pagination__link--prev'))
})

test('customCss is added after Keyward stylesheet, in the one file pages load', async (t) => {
  const site = themedSite(t)
  await build({ root: site.root, outDir: site.out, workers: 1 })
  const css = readdirSync(join(site.out, 'docs/assets/css')).find((file) =>
    file.startsWith('styles.'),
  )!
  const text = readFileSync(join(site.out, 'docs/assets/css', css), 'utf8')
  t.regex(text, /\.footer__grid\{/)
  t.true(text.indexOf('.my-footer{color:#639}') > text.indexOf('.footer__grid{'))
  t.true(site.read('docs/guide/index.html').includes(`/docs/assets/css/${css}`))
})

test('render workers use the overrides too', async (t) => {
  const many = Object.fromEntries(
    Array.from({ length: 160 }, (_, i) => [`guide/p${i}.md`, doc({ title: `P${i}` })]),
  )
  const site = themedSite(t, many)
  const result = await build({ root: site.root, outDir: site.out, workers: 2, cacheDir: false })
  t.deepEqual(result.errors, [])
  t.true(site.read('docs/guide/p42/index.html').includes('<footer class="my-footer">'))
})

test('editing an override or the custom CSS rewrites the pages', async (t) => {
  const site = themedSite(t)
  const options = { root: site.root, outDir: site.out, workers: 1 }
  await build(options)
  site.write(
    'content/theme/Footer.tsx',
    FOOTER.replace('className="my-footer"', 'className="new-footer"'),
  )
  await build(options)
  t.true(site.read('docs/guide/index.html').includes('<footer class="new-footer">'))
  site.write('content/theme/custom.css', '.new-footer { color: teal }\n')
  await build(options)
  const css = readdirSync(join(site.out, 'docs/assets/css')).find((file) =>
    file.startsWith('styles.'),
  )!
  t.true(
    readFileSync(join(site.out, 'docs/assets/css', css), 'utf8').includes(
      '.new-footer{color:teal}',
    ),
  )
})

test('a theme file naming no component, or a missing stylesheet, is an error', async (t) => {
  const site = themedSite(t, {}, { customCss: ['./theme/missing.css'] })
  site.write('content/theme/Foter.tsx', FOOTER)
  const error = await t.throwsAsync(build({ root: site.root, outDir: site.out, workers: 1 }), {
    instanceOf: BuildFailedError,
  })
  const messages = (error as BuildFailedError).diagnostics.map((d) => `${d.file}: ${d.message}`)
  t.is(messages.length, 2)
  t.regex(
    messages[0],
    /^content\/site\.config\.ts: customCss\.0: \.\/theme\/missing\.css not found$/,
  )
  t.regex(
    messages[1],
    /^content\/theme\/Foter\.tsx: no template component is called Foter; .*Footer/,
  )
})
