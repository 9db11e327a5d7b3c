// Locales and versions in a real browser: the language and version menus lead to the same page
// in the other language or version, an untranslated page shows its notice, an archived one its
// banner linking back to the current page, search answers from the page's own locale, the
// `hreflang` links follow client navigation, an untranslated page's links stay in its locale,
// the navbar and footer speak the page's language, and a missing French page is the French 404.
import test from 'ava'
import type { Page } from 'playwright-core'
import { build } from '../../cli/build.ts'
import { type RunningServer, startServer } from '../../cli/serve/serve.ts'
import { closeBrowser, hydrated, newPage } from '../helpers/browser.ts'
import { baseConfig, Cleanups, createSite, doc } from '../helpers/site.ts'

const cleanups = new Cleanups()
let origin = ''

test.before(async () => {
  const site = createSite(
    cleanups,
    {
      'guide/index.md': doc({ title: 'Guide' }, 'Welcome. Read [usage](./usage.md).\n'),
      'guide/usage.md': doc(
        { title: 'Usage' },
        '## Options\n\nThe port option. Back to [the guide](./index.md).\n',
      ),
    },
    {
      config: {
        ...baseConfig,
        guides: [{ id: 'guide', label: 'Guide' }],
        locales: {
          default: 'en',
          items: [
            { code: 'en', label: 'English' },
            { code: 'fr', label: 'Français' },
          ],
        },
        versions: [
          { name: 'current', label: '2.x', path: '' },
          { name: 'v1', label: '1.x' },
        ],
      },
      files: {
        'content/i18n/fr/docs/guide/index.md': doc(
          { title: 'Guide en français' },
          'Bienvenue. Lisez [l’utilisation](./usage.md).\n',
        ),
        'content/i18n/fr/strings.json': JSON.stringify({
          'doc.fallbackTitle': 'Pas encore traduite',
          'search.placeholder': 'Rechercher (Ctrl+K)',
          'search.noResults': 'Aucun résultat',
          'notFound.title': 'Page introuvable',
          'site:Guide': 'Le guide',
          'site:Legal': 'Mentions légales',
        }),
        'content/versions/v1/docs/guide/index.md': doc({ title: 'Guide' }, 'The old guide.\n'),
        'content/versions/v1/docs/guide/usage.md': doc({ title: 'Usage' }, 'The old usage.\n'),
      },
    },
  )
  await build({ root: site.root, outDir: site.out, workers: 1 })
  const server: RunningServer = await startServer({
    root: site.root,
    port: 0,
    host: '127.0.0.1',
    dir: site.out,
  })
  cleanups.teardown(() => server.close())
  origin = new URL(server.url).origin
})

test.after.always(async () => {
  await closeBrowser()
  await cleanups.run()
})

const choose = async (page: Page, menu: 'locale' | 'version', item: string) => {
  await page.locator(`#${menu}-dropdown-button`).click()
  await page.getByRole('menuitem', { name: item }).click()
}

test('the language menu leads to the same page in French; an untranslated page says so', async (t) => {
  const { page } = await newPage(t)
  await page.goto(`${origin}/docs/guide/usage/`)
  await hydrated(page)
  t.is(await page.locator('#locale-dropdown-button').textContent(), 'English')
  await choose(page, 'locale', 'Français')
  await page.waitForURL(`${origin}/docs/fr/guide/usage/`)
  await page.waitForSelector('.variant-notice')
  t.is(
    await page.locator('.variant-notice .admonition__title').textContent(),
    'Pas encore traduite',
  )
  t.true(await page.locator('.variant-notice').isVisible())
  t.is(await page.locator('.markdown').getAttribute('lang'), 'en')
  t.is(await page.evaluate(() => document.documentElement.lang), 'fr')
  t.is(await page.locator('#locale-dropdown-button').textContent(), 'Français')
  // The translated page has no notice, and the menu leads back to English.
  await page.goto(`${origin}/docs/fr/guide/`)
  await hydrated(page)
  t.is(await page.locator('h1').textContent(), 'Guide en français')
  t.is(await page.locator('.variant-notice').count(), 0)
  await choose(page, 'locale', 'English')
  await page.waitForURL(`${origin}/docs/guide/`)
  await page.waitForFunction(() => document.documentElement.lang === 'en')
  t.is(await page.locator('h1').textContent(), 'Guide')
})

test('the version menu leads to the archived page, whose banner leads back to the current one', async (t) => {
  const { page } = await newPage(t)
  await page.goto(`${origin}/docs/guide/usage/`)
  await hydrated(page)
  t.is(await page.locator('#version-dropdown-button').textContent(), '2.x')
  t.is(await page.locator('.archived-banner').count(), 0)
  await choose(page, 'version', '1.x')
  await page.waitForURL(`${origin}/docs/v1/guide/usage/`)
  await page.waitForSelector('.archived-banner')
  t.true((await page.locator('.markdown').textContent())?.includes('The old usage.'))
  t.is(await page.locator('#version-dropdown-button').textContent(), '1.x')
  await page.locator('.archived-banner a').click()
  await page.waitForURL(`${origin}/docs/guide/usage/`)
  await page.waitForFunction(() => !document.querySelector('.archived-banner'))
  t.true((await page.locator('.markdown').textContent())?.includes('The port option.'))
})

test('search answers from the index of the page’s locale', async (t) => {
  const { page } = await newPage(t)
  await page.goto(`${origin}/docs/fr/guide/`)
  await hydrated(page)
  const box = page.locator('#docs-search')
  t.is(await box.getAttribute('placeholder'), 'Rechercher (Ctrl+K)')
  await box.fill('bienvenue')
  await page.waitForSelector('[data-answered="bienvenue"]')
  t.regex(
    (await page.locator('[role="option"]').first().getAttribute('data-url')) ?? '',
    /^\/docs\/fr\/guide\/\?highlight=/,
  )
  // The English pages' index has no French word.
  await page.goto(`${origin}/docs/guide/`)
  await hydrated(page)
  await page.locator('#docs-search').fill('bienvenue')
  await page.waitForSelector('[data-answered="bienvenue"]')
  t.is(await page.locator('[role="option"]').count(), 0)
  t.is(await page.locator('.navbar-search__status').textContent(), 'No results')
})

const alternates = (page: Page) =>
  page.evaluate(() =>
    [...document.head.querySelectorAll('link[rel="alternate"][hreflang]')].map(
      (link) => `${link.getAttribute('hreflang')} ${new URL(link.getAttribute('href')!).pathname}`,
    ),
  )

/** Set before a click: still there after it when the router rendered the next page. */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    ;(window as unknown as { marker: boolean }).marker = true
  })
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { marker?: boolean }).marker === true)

test('the hreflang links follow client navigation', async (t) => {
  const { page } = await newPage(t)
  await page.goto(`${origin}/docs/guide/`)
  await hydrated(page)
  const translated = ['en /docs/guide/', 'fr /docs/fr/guide/', 'x-default /docs/guide/']
  t.deepEqual(await alternates(page), translated)
  await markDocument(page)
  // Usage has no translation: no alternates.
  await page.locator('.markdown a', { hasText: 'usage' }).click()
  await page.waitForURL(`${origin}/docs/guide/usage/`)
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Usage')
  t.true(await sameDocument(page), 'the router rendered the page')
  t.deepEqual(await alternates(page), [])
  await page.locator('.markdown a', { hasText: 'the guide' }).click()
  await page.waitForURL(`${origin}/docs/guide/`)
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Guide')
  t.true(await sameDocument(page))
  t.deepEqual(await alternates(page), translated)
})

test('a link on an untranslated page leads to the page in the same locale', async (t) => {
  const { page } = await newPage(t)
  await page.goto(`${origin}/docs/fr/guide/usage/`)
  await hydrated(page)
  const link = page.locator('.markdown a', { hasText: 'the guide' })
  t.is(await link.getAttribute('href'), '/docs/fr/guide/')
  await link.click()
  await page.waitForURL(`${origin}/docs/fr/guide/`)
  await page.waitForFunction(
    () => document.querySelector('h1')?.textContent === 'Guide en français',
  )
  t.is(await page.evaluate(() => document.documentElement.lang), 'fr')
})

test('the navbar and footer speak the page’s language, also after switching languages', async (t) => {
  const { page } = await newPage(t)
  await page.goto(`${origin}/docs/fr/guide/`)
  await hydrated(page)
  const navbar = page.locator('.navbar .navbar__link').first()
  const footer = page.locator('.footer__title').first()
  t.is(await navbar.textContent(), 'Le guide')
  t.is(await footer.textContent(), 'Mentions légales')
  await markDocument(page)
  await choose(page, 'locale', 'English')
  await page.waitForURL(`${origin}/docs/guide/`)
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Guide')
  t.true(await sameDocument(page), 'the router rendered the page')
  t.is(await navbar.textContent(), 'Guide')
  t.is(await footer.textContent(), 'Legal')
  await choose(page, 'locale', 'Français')
  await page.waitForURL(`${origin}/docs/fr/guide/`)
  await page.waitForFunction(() => document.documentElement.lang === 'fr')
  t.is(await navbar.textContent(), 'Le guide')
  t.is(await footer.textContent(), 'Mentions légales')
})

test('a missing page below /docs/fr/ is the French 404 page; elsewhere the English one', async (t) => {
  const { page } = await newPage(t)
  const french = await page.goto(`${origin}/docs/fr/guide/nothing-here/`)
  t.is(french?.status(), 404)
  t.is(await page.locator('h1').textContent(), 'Page introuvable')
  t.is(await page.evaluate(() => document.documentElement.lang), 'fr')
  t.is(await page.locator('.not-found a').getAttribute('href'), '/docs/fr/')
  t.is(await page.locator('.navbar .navbar__link').first().textContent(), 'Le guide')
  const english = await page.goto(`${origin}/docs/guide/nothing-here/`)
  t.is(english?.status(), 404)
  t.is(await page.locator('h1').textContent(), 'Page Not Found')
  t.is(await page.evaluate(() => document.documentElement.lang), 'en')
})
