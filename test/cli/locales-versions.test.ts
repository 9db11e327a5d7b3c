// Locales and versions: translated pages below /docs/<code>/, untranslated ones shown from the
// default locale with a notice, archived versions below /docs/<name>/ with a banner, the links
// between them (dropdowns, hreflang, canonical, sitemap), one search index each, template
// strings per locale, the `docs version` command and incremental builds of translations.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { build } from '../../cli/build.ts'
import { SiteBuilder } from '../../cli/builder/site-builder.ts'
import { BuildFailedError } from '../../cli/errors.ts'
import type { PageModel } from '../../model/site-model.ts'
import { en } from '../../templates/i18n/en.ts'
import { baseConfig, createSite, doc, type TestSite } from '../helpers/site.ts'

const bin = fileURLToPath(new URL('../../bin/docs.js', import.meta.url))

const config = {
  ...baseConfig,
  guides: [{ id: 'guide', label: 'Guide' }],
  locales: {
    default: 'en',
    items: [
      { code: 'en', label: 'English' },
      { code: 'fr', label: 'Français', tagline: 'Une documentation de test.' },
    ],
  },
  versions: [
    { name: 'current', label: '2.x', path: '' },
    { name: 'v1', label: '1.x' },
  ],
}

const docs = {
  'guide/index.md': doc({ title: 'Guide' }, 'Welcome. Read [usage](./usage.md).\n'),
  'guide/usage.md': doc(
    { title: 'Usage' },
    '## Options\n\nThe port option. See [what is new](./new.md), [the options](#options), [this page](./usage.md#options) and [the logo](/docs/img/logo.svg).\n',
  ),
  'guide/new.md': doc({ title: 'New in 2' }, 'Only in the current docs.\n'),
}

const files = {
  'content/i18n/fr/docs/guide/index.md': doc(
    { title: 'Guide (fr)' },
    'Bienvenue. Lisez [l’utilisation](./usage.md) et la [nouveauté](./new.md).\n',
  ),
  'content/i18n/fr/strings.json': JSON.stringify({
    'toc.title': 'Sur cette page',
    'doc.fallbackTitle': 'Pas encore traduite',
    'doc.fallback': 'Pas encore traduite en {language}, affichée en {default}.',
    'notFound.title': 'Page introuvable',
    'site:Guide': 'Le guide',
    'site:Legal': 'Mentions légales',
  }),
  'content/versions/v1/docs/guide/index.md': doc({ title: 'Guide' }, 'The old guide.\n'),
  'content/versions/v1/docs/guide/usage.md': doc({ title: 'Usage' }, 'The old usage.\n'),
  'content/versions/v1/docs/guide/old.md': doc({ title: 'Removed later' }, 'Gone in 2.\n'),
}

const pageData = (site: TestSite, route: string): PageModel =>
  JSON.parse(site.read(`${route.slice(1)}page-data.json`))

const links = (html: string, rel: string) =>
  [
    ...html.matchAll(new RegExp(`<link rel="${rel}"( hrefLang="([^"]+)")? href="([^"]+)"`, 'g')),
  ].map((m) => (m[2] ? `${m[2]} ${m[3]}` : m[3]))

const builtSite = async (t: Parameters<typeof createSite>[0]) => {
  const site = createSite(t, docs, { config, files })
  const result = await build({ root: site.root, outDir: site.out, workers: 1 })
  return { site, result }
}

test('a translated page renders below /docs/<code>/ in its language, its links to its locale', async (t) => {
  const { site, result } = await builtSite(t)
  t.deepEqual(result.errors, [])
  const html = site.read('docs/fr/guide/index.html')
  t.regex(html, /<html lang="fr"/)
  t.true(html.includes('<h1>Guide (fr)</h1>'))
  // Relative links go to the same locale, translated or not.
  t.true(html.includes('href="/docs/fr/guide/usage/"'))
  t.true(html.includes('href="/docs/fr/guide/new/"'))
  t.false(html.includes('variant-notice'), 'a translation has no notice')
  t.true(html.includes('Sur cette page'), 'the locale strings are used')
  t.regex(site.read('docs/guide/index.html'), /<html lang="en"/)
})

test('an untranslated page falls back to the default locale with a notice', async (t) => {
  const { site } = await builtSite(t)
  const html = site.read('docs/fr/guide/usage/index.html')
  t.regex(html, /<html lang="fr"/)
  t.true(html.includes('Pas encore traduite en Français, affichée en English.'))
  t.true(html.includes('<div class="markdown" lang="en">'), 'its content is marked English')
  t.true(html.includes('The port option.'))
  t.deepEqual(links(html, 'canonical'), ['https://docs.test/docs/guide/usage/'])
  t.deepEqual(links(html, 'alternate'), [], 'no hreflang to a copy')
  // A key the translation lacks is English.
  t.true(html.includes(en['pagination.previous']))
  const page = pageData(site, '/docs/fr/guide/usage/')
  t.true(page.variants?.fallback)
  t.is(page.sidebarId, 'fr--guide')
})

test('an untranslated page links to the pages of its locale; files and anchors stay', async (t) => {
  const { site } = await builtSite(t)
  const french = site.read('docs/fr/guide/usage/index.html')
  const links = (html: string) =>
    [...html.slice(html.indexOf('The port option.')).matchAll(/<a href="([^"]+)"/g)]
      .slice(0, 4)
      .map((m) => m[1])
  t.deepEqual(links(french), [
    '/docs/fr/guide/new/',
    '#options',
    '/docs/fr/guide/usage/#options',
    '/docs/img/logo.svg',
  ])
  t.is(
    links(pageData(site, '/docs/fr/guide/usage/').html)[0],
    '/docs/fr/guide/new/',
    'client navigation gets the same',
  )
  // The English page it is shown from keeps its own links.
  t.deepEqual(links(site.read('docs/guide/usage/index.html')), [
    '/docs/guide/new/',
    '#options',
    '/docs/guide/usage/#options',
    '/docs/img/logo.svg',
  ])
})

test('the navbar and footer texts of the config are in the page’s language', async (t) => {
  const { site } = await builtSite(t)
  const french = site.read('docs/fr/guide/index.html')
  t.regex(french, /class="navbar__link[^"]*" href="\/docs\/guide\/"[^>]*>Le guide</)
  t.regex(french, /<h2 class="footer__title">Mentions légales<\/h2>/)
  // A text the translation does not give is as the config writes it.
  t.regex(french, /<a href="\/docs\/">Home<\/a>/)
  const english = site.read('docs/guide/index.html')
  t.regex(english, /class="navbar__link[^"]*" href="\/docs\/guide\/"[^>]*>Guide</)
  t.regex(english, /<h2 class="footer__title">Legal<\/h2>/)
})

test('each locale has its 404 page in its language', async (t) => {
  const { site } = await builtSite(t)
  const french = site.read('docs/fr/404.html')
  t.regex(french, /<html lang="fr"/)
  t.true(french.includes('<h1>Page introuvable</h1>'))
  t.true(french.includes('<title>Page introuvable | Test Docs</title>'))
  t.regex(french, /<meta name="robots" content="noindex, nofollow"/)
  t.true(site.read('docs/404.html').includes('<h1>Page Not Found</h1>'))
  t.false(existsSync(join(site.out, 'docs/v1/404.html')), 'an archived version has none')
})

test('the locale menu links to the same page in each locale; hreflang lists the translations', async (t) => {
  const { site } = await builtSite(t)
  const page = pageData(site, '/docs/guide/')
  t.deepEqual(page.variants?.locales, [
    { code: 'en', label: 'English', href: '/docs/guide/', translated: true },
    { code: 'fr', label: 'Français', href: '/docs/fr/guide/', translated: true },
  ])
  const expected = [
    'en https://docs.test/docs/guide/',
    'fr https://docs.test/docs/fr/guide/',
    'x-default https://docs.test/docs/guide/',
  ]
  t.deepEqual(links(site.read('docs/guide/index.html'), 'alternate'), expected)
  t.deepEqual(links(site.read('docs/fr/guide/index.html'), 'alternate'), expected)
  t.deepEqual(links(site.read('docs/fr/guide/index.html'), 'canonical'), [
    'https://docs.test/docs/fr/guide/',
  ])
  const usage = pageData(site, '/docs/guide/usage/')
  t.deepEqual(
    usage.variants?.locales.map((l) => [l.href, l.translated]),
    [
      ['/docs/guide/usage/', true],
      ['/docs/fr/guide/usage/', false],
    ],
  )
  // Each locale has its landing and search pages.
  const landing = site.read('docs/fr/index.html')
  t.true(landing.includes('Une documentation de test.'))
  t.true(landing.includes('href="/docs/fr/guide/"'))
  t.true(existsSync(join(site.out, 'docs/fr/search/index.html')))
})

test('an archived version renders below /docs/<name>/ with a banner; the version menu finds the same page', async (t) => {
  const { site } = await builtSite(t)
  const html = site.read('docs/v1/guide/usage/index.html')
  t.true(html.includes('The old usage.'))
  t.true(html.includes('archived-banner'))
  t.true(html.includes(en['doc.archived'].replace('{version}', '1.x')))
  t.regex(html, /archived-banner.*<a href="\/docs\/guide\/usage\/">/s)
  t.deepEqual(links(html, 'canonical'), ['https://docs.test/docs/guide/usage/'])
  t.false(site.read('docs/guide/usage/index.html').includes('archived-banner'))

  const versionsOf = (route: string) =>
    pageData(site, route).variants?.versions.map((v) => `${v.label} ${v.href}`)
  t.deepEqual(versionsOf('/docs/guide/usage/'), [
    '2.x /docs/guide/usage/',
    '1.x /docs/v1/guide/usage/',
  ])
  // A page one version lacks links to that version's landing page.
  t.deepEqual(versionsOf('/docs/guide/new/'), ['2.x /docs/guide/new/', '1.x /docs/v1/'])
  t.deepEqual(versionsOf('/docs/v1/guide/old/'), ['2.x /docs/', '1.x /docs/v1/guide/old/'])
  // From a translation, the other version is its page in the default locale.
  t.deepEqual(versionsOf('/docs/fr/guide/'), ['2.x /docs/fr/guide/', '1.x /docs/v1/guide/'])
  // A page only the archive has is its own canonical page.
  t.deepEqual(links(site.read('docs/v1/guide/old/index.html'), 'canonical'), [
    'https://docs.test/docs/v1/guide/old/',
  ])
})

test('the sitemap lists translations as alternates, and no copy of another page', async (t) => {
  const { site } = await builtSite(t)
  const sitemap = site.read('docs/sitemap.xml')
  t.true(sitemap.includes('xmlns:xhtml="http://www.w3.org/1999/xhtml"'))
  const url = (loc: string) =>
    sitemap.match(new RegExp(`<url><loc>https://docs.test${loc}</loc>(.*?)</url>`))?.[1]
  t.true(
    url('/docs/guide/')?.startsWith(
      '<xhtml:link rel="alternate" hreflang="en" href="https://docs.test/docs/guide/"/>' +
        '<xhtml:link rel="alternate" hreflang="fr" href="https://docs.test/docs/fr/guide/"/>' +
        '<xhtml:link rel="alternate" hreflang="x-default" href="https://docs.test/docs/guide/"/>',
    ),
  )
  t.truthy(url('/docs/fr/guide/'))
  t.false(url('/docs/guide/usage/')?.includes('xhtml:link'), 'untranslated: no alternates')
  t.is(url('/docs/fr/guide/usage/'), undefined, 'a fallback copy is not listed')
  t.is(url('/docs/v1/guide/usage/'), undefined, 'an archived copy of a current page is not listed')
  t.truthy(url('/docs/v1/guide/old/'), 'a page only the archive has is listed')
})

test('each locale and version has its own search index', async (t) => {
  const { site } = await builtSite(t)
  const manifest = JSON.parse(site.read('docs/search-manifest.json'))
  t.deepEqual(Object.keys(manifest.versions).sort(), ['current', 'fr', 'v1'])
  const root = (name: string) => {
    const url: string = manifest.versions[name]
    return JSON.parse(readFileSync(join(site.out, url), 'utf8'))
  }
  const words = (name: string) => root(name).chunks.flatMap((c: { terms: string[] }) => c.terms)
  t.true(words('fr').includes('bienvenu'))
  t.false(words('current').includes('bienvenu'))
  t.true(words('v1').includes('old'))
  t.false(words('current').includes('old'))
  // Contexts are the guides below each variant's own base.
  t.deepEqual(root('fr').contexts, ['guide'])
})

test('a site without locales or versions has none of it', async (t) => {
  const site = createSite(t, docs)
  await build({ root: site.root, outDir: site.out, workers: 1 })
  const html = site.read('docs/guide/index.html')
  t.is(pageData(site, '/docs/guide/').variants, undefined)
  t.deepEqual(links(html, 'alternate'), [])
  t.false(site.read('docs/sitemap.xml').includes('xhtml'))
  t.deepEqual(Object.keys(JSON.parse(site.read('docs/search-manifest.json')).versions), ['current'])
})

test('config problems: a default locale not listed, a segment two things claim, an unknown string', async (t) => {
  const failure = async (overrides: object, extra: Record<string, string> = {}) => {
    const site = createSite(t, docs, {
      config: { ...config, ...overrides },
      files: { ...files, ...extra },
    })
    const error = await t.throwsAsync(build({ root: site.root, outDir: site.out, workers: 1 }), {
      instanceOf: BuildFailedError,
    })
    return (error as BuildFailedError).diagnostics.map((d) => d.message).join('\n')
  }
  t.regex(
    await failure({ locales: { default: 'de', items: config.locales.items } }),
    /"de" is not one of locales.items/,
  )
  t.regex(
    await failure({ versions: [...config.versions, { name: 'fr', label: 'F' }] }),
    /"fr" is also locale "fr"/,
  )
  t.regex(
    await failure({ versions: [config.versions[0], { name: 'guide', label: 'G' }] }),
    /"guide" is also guide "guide"/,
  )
  t.regex(
    await failure({}, { 'content/i18n/fr/strings.json': '{"toc.titel": "x"}' }),
    /unknown key "toc.titel"/,
  )
  t.regex(
    await failure({}, { 'content/i18n/fr/strings.json': '{"site:Gide": "x"}' }),
    /"site:Gide" names no navbar or footer text of the site config/,
  )
  t.regex(
    await failure({ versions: [...config.versions, { name: 'v0', label: '0.x' }] }),
    /version "v0" has no content\/versions\/v0\/docs\//,
  )
})

test('`docs version <name>` snapshots the current docs into a version the next build renders', async (t) => {
  const site = createSite(t, docs, { config, files })
  const run = (args: string[]) =>
    spawnSync(process.execPath, [bin, '--root', site.root, ...args], {
      encoding: 'utf8',
      timeout: 60_000,
    })
  const made = run(['version', 'v2', '--label', '2.0'])
  t.is(made.status, 0, made.stderr)
  t.is(
    readFileSync(join(site.root, 'content/versions/v2/docs/guide/new.md'), 'utf8'),
    docs['guide/new.md'],
  )
  t.deepEqual(JSON.parse(readFileSync(join(site.root, 'content/versions/versions.json'), 'utf8')), [
    { name: 'v2', label: '2.0' },
  ])
  const again = run(['version', 'v2'])
  t.is(again.status, 1)
  t.regex(again.stderr, /version "v2" already exists/)
  t.is(run(['version', '../x']).status, 1)

  const result = await build({ root: site.root, outDir: site.out, workers: 1 })
  t.deepEqual(result.errors, [])
  t.true(site.read('docs/v2/guide/new/index.html').includes('Only in the current docs.'))
  t.deepEqual(
    pageData(site, '/docs/guide/new/').variants?.versions.map((v) => `${v.label} ${v.href}`),
    ['2.x /docs/guide/new/', '1.x /docs/v1/', '2.0 /docs/v2/guide/new/'],
  )
})

test('a changed translation renders again alone and rewrites its own pages only', async (t) => {
  const { site } = await builtSite(t)
  const mtime = (route: string) => statSync(join(site.out, route, 'index.html')).mtimeMs
  const before = {
    english: mtime('docs/guide'),
    fallback: mtime('docs/fr/guide/usage'),
    archived: mtime('docs/v1/guide'),
  }
  site.write(
    'content/i18n/fr/docs/guide/index.md',
    doc({ title: 'Guide (fr)' }, 'Bonjour. Lisez [l’utilisation](./usage.md).\n'),
  )
  const result = await build({ root: site.root, outDir: site.out, workers: 1 })
  t.deepEqual(result.errors, [])
  // 3 English, 1 French and 3 archived docs: all but the edited one from the cache.
  t.is(result.cached, 6)
  t.true(site.read('docs/fr/guide/index.html').includes('Bonjour.'))
  t.is(mtime('docs/guide'), before.english)
  t.is(mtime('docs/fr/guide/usage'), before.fallback)
  t.is(mtime('docs/v1/guide'), before.archived)
})

test('the dev server rebuilds an edited translation alone, and an English edit reaches its untranslated copies', async (t) => {
  const site = createSite(t, docs, { config, files })
  const builder = new SiteBuilder({ root: site.root, outDir: site.out, workers: 1, dev: true })
  t.teardown(() => builder.close())
  await builder.buildAll()
  const translation = join(site.root, 'content/i18n/fr/docs/guide/index.md')
  site.write(
    'content/i18n/fr/docs/guide/index.md',
    doc({ title: 'Guide (fr)' }, 'Salut. Lisez [l’utilisation](./usage.md).\n'),
  )
  const edited = await builder.updateDocs([translation])
  t.false(edited.full)
  t.deepEqual(edited.routes, ['/docs/fr/guide/'])
  t.true(site.read('docs/fr/guide/index.html').includes('Salut.'))

  const english = join(site.root, 'content/docs/guide/usage.md')
  site.write('content/docs/guide/usage.md', doc({ title: 'Usage' }, 'The host option.\n'))
  const both = await builder.updateDocs([english])
  t.false(both.full)
  t.deepEqual(both.routes.sort(), ['/docs/fr/guide/usage/', '/docs/guide/usage/'])
  t.true(site.read('docs/fr/guide/usage/index.html').includes('The host option.'))
  t.true(site.read('docs/fr/guide/usage/index.html').includes('Pas encore traduite'))

  const archived = join(site.root, 'content/versions/v1/docs/guide/old.md')
  site.write(
    'content/versions/v1/docs/guide/old.md',
    doc({ title: 'Removed later' }, 'Still gone.\n'),
  )
  const old = await builder.updateDocs([archived])
  t.deepEqual(old.routes, ['/docs/v1/guide/old/'])
  t.true(site.read('docs/v1/guide/old/index.html').includes('archived-banner'))
})
