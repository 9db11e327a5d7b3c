// Search in a real browser against the built site: the shortcut, suggestions and their limit,
// keyboard use, footer variants, "No results", highlight and clear, and the results page.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import type { Page } from 'playwright-core'
import { build } from '../../cli/build.ts'
import { type RunningServer, startServer } from '../../cli/serve/serve.ts'
import { closeBrowser, holdReactPart, hydrated, newPage } from '../helpers/browser.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
let server: RunningServer
let out: string

test.before(async () => {
  out = mkdtempSync(join(tmpdir(), 'keyward-search-'))
  await build({ root, outDir: out, workers: 1 })
  server = await startServer({ root, port: 0, host: '127.0.0.1', dir: out })
})

test.after.always(async () => {
  await closeBrowser()
  await server?.close()
  rmSync(out, { recursive: true, force: true })
})

const url = (path: string) => new URL(path, server.url).href
const options = '#docs-search-listbox [role="option"]'

/**
 * Types a query and waits for its own suggestions: each keystroke is a query, and the answer
 * to an earlier prefix may be on screen before the last one's arrives.
 */
const typeQuery = async (page: Page, text: string) => {
  await page.keyboard.type(text)
  await page.waitForSelector(`.navbar-search[data-answered="${text}"]`)
  await page.waitForSelector(options)
}

test('Ctrl+K focuses the search; typing loads the guide index and shows at most 8 typed suggestions', async (t) => {
  const { page, errors } = await newPage(t)
  await page.goto(url('/docs/hosting/'))
  await page.keyboard.press('Control+k')
  t.is(await page.evaluate(() => document.activeElement?.id), 'docs-search')
  await typeQuery(page, 'postgres')
  const count = await page.locator(options).count()
  t.true(count > 0 && count <= 8, `${count} suggestions`)
  t.is(await page.locator('.navbar-search').getAttribute('data-state'), 'done')
  const firstOption = page.locator(options).first()
  t.regex(
    (await firstOption.locator('.suggestion__type').textContent()) ?? '',
    /^(Title|Heading|Content)$/,
  )
  t.true((await firstOption.innerHTML()).includes('<mark>'), 'matched terms are marked')
  t.regex((await firstOption.locator('.suggestion__path').textContent()) ?? '', /^Hosting guide/)
  await page.locator('#docs-search').fill('server')
  await page.waitForSelector('.navbar-search[data-answered="server"]')
  await page.waitForFunction(
    () => document.querySelectorAll('#docs-search-listbox [role="option"]').length === 8,
  )
  t.is(await page.locator(options).count(), 8, 'never more than 8')
  t.deepEqual(errors, [])
})

test('keyboard: arrows move the active option, Enter opens it with the terms highlighted, Escape closes', async (t) => {
  const { page } = await newPage(t)
  await page.goto(url('/docs/hosting/'))
  await page.locator('#docs-search').click()
  await typeQuery(page, 'postgres')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  t.is(
    await page.locator('#docs-search').getAttribute('aria-activedescendant'),
    'docs-search-option-1',
  )
  t.is(await page.locator('#docs-search-option-1').getAttribute('aria-selected'), 'true')
  await page.keyboard.press('ArrowUp')
  const target = await page.locator('#docs-search-option-0').getAttribute('data-url')
  await Promise.all([page.waitForURL(/highlight=/), page.keyboard.press('Enter')])
  t.is(
    new URL(page.url()).pathname + new URL(page.url()).search + new URL(page.url()).hash,
    target ?? '',
  )
  t.true((await page.locator('mark[data-search-highlight]').count()) > 0)
  await page.locator('#docs-search').click()
  await typeQuery(page, 'backu')
  // Escape while the last keystroke's answer is still on its way: that answer arrives and
  // fills the list, but the suggestions stay closed.
  await page.keyboard.type('p')
  await page.keyboard.press('Escape')
  await page.waitForSelector('.navbar-search[data-answered="backup"]')
  t.is(await page.locator('#docs-search').getAttribute('aria-expanded'), 'false')
  t.true(await page.locator('.navbar-search__panel').isHidden())
})

test('text typed before the page is live is searched once it is', async (t) => {
  const { page, errors } = await newPage(t)
  // The React part is held until the reader has typed.
  let release = () => {}
  const typed = new Promise<void>((resolve) => {
    release = resolve
  })
  await holdReactPart(page, typed)
  await page.goto(url('/docs/hosting/'))
  await page.locator('#docs-search').click()
  await page.keyboard.type('postgres')
  t.not(await page.evaluate(() => document.documentElement.dataset.hydrated), 'true')
  release()
  await hydrated(page)
  await page.waitForSelector('.navbar-search[data-answered="postgres"]')
  await page.waitForSelector(options)
  t.is(await page.locator('#docs-search').inputValue(), 'postgres')
  t.is(await page.locator('#docs-search').getAttribute('aria-expanded'), 'true')
  t.deepEqual(errors, [])
})

test('footer: within the guide, outside it when the guide has nothing, and all results outside any guide', async (t) => {
  const { page } = await newPage(t)
  await page.goto(url('/docs/hosting/'))
  await page.locator('#docs-search').click()
  await typeQuery(page, 'postgres')
  t.is(
    await page.locator('.navbar-search__footer').textContent(),
    'See all results within "Hosting guide"',
  )
  t.regex(
    (await page.locator('.navbar-search__footer').getAttribute('href')) ?? '',
    /\/docs\/search\/\?q=postgres&ctx=hosting$/,
  )
  await page.locator('#docs-search').fill('zzqxjwv')
  await page.waitForFunction(
    () => document.querySelector('.navbar-search__status')?.textContent === 'No results',
  )
  t.is(
    await page.locator('.navbar-search__footer').textContent(),
    'See all results outside "Hosting guide"',
  )
  await page.goto(url('/docs/'))
  await page.locator('#docs-search').click()
  await typeQuery(page, 'postgres')
  t.is(await page.locator('.navbar-search__footer').textContent(), 'See all results')
})

test('the clear button empties the search and removes the highlight from the page and the URL', async (t) => {
  const { page } = await newPage(t)
  await page.goto(url('/docs/hosting/configure/database/postgres/?highlight=postgr'))
  t.true((await page.locator('mark[data-search-highlight]').count()) > 0)
  await page.locator('#docs-search').click()
  await typeQuery(page, 'backup')
  await page.locator('.navbar-search__clear').click()
  t.is(await page.locator('#docs-search').inputValue(), '')
  t.is(await page.locator('mark[data-search-highlight]').count(), 0)
  t.false(page.url().includes('highlight='))
})

test('the results page reads q and ctx, groups hits with breadcrumbs and excerpts, and keeps the URL in step', async (t) => {
  const { page } = await newPage(t)
  await page.goto(url('/docs/search/?q=postgres&ctx=hosting'))
  await page.waitForSelector('.search-result')
  t.regex(
    (await page.locator('.search-page__status').textContent()) ?? '',
    /results? for "postgres" in Hosting guide/,
  )
  t.regex(
    (await page.locator('.search-result__path').first().textContent()) ?? '',
    /^Hosting guide/,
  )
  t.true((await page.locator('.search-result mark').count()) > 0)
  await page.locator('input[name="q"]').fill('embedded')
  await page.waitForFunction(() => new URL(location.href).searchParams.get('q') === 'embedded')
  t.is(new URL(page.url()).searchParams.get('ctx'), 'hosting')
  await page.reload()
  await page.waitForSelector('.search-result')
  t.is(await page.locator('input[name="q"]').inputValue(), 'embedded')
})

test('a version outside the base URL is a clear search error', async (t) => {
  const { page, errors } = await newPage(t)
  await page.goto(url('/docs/search/?q=postgres&version=/other/'))
  await page.waitForFunction(() =>
    document.querySelector('.search-page__status')?.textContent?.startsWith('Search error'),
  )
  t.is(
    await page.locator('.search-page__status').textContent(),
    'Search error: the version URL "/other/" does not start with the base URL "/docs/".',
  )
  t.true(errors.some((message) => message.includes('does not start with the base URL')))
})

test('after client navigation to another guide, the search looks in that guide', async (t) => {
  const { page } = await newPage(t)
  await page.goto(url('/docs/hosting/'))
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await page.locator('.navbar').getByRole('link', { name: 'Admin guide' }).click()
  await page.waitForURL(/\/docs\/admin\/$/)
  t.is(await page.locator('.navbar-search').getAttribute('data-context'), 'admin')
  await page.locator('#docs-search').click()
  await typeQuery(page, 'users')
  t.is(
    await page.locator('.navbar-search__footer').textContent(),
    'See all results within "Admin guide"',
  )
  t.regex(
    (await page.locator(options).first().locator('.suggestion__path').textContent()) ?? '',
    /^Admin guide/,
  )
})

test('an answer to a query cleared before the index loaded is not shown', async (t) => {
  const { page } = await newPage(t)
  // Slow the index so the first query is still pending when the box is cleared.
  await page.route('**/assets/search/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 600))
    await route.continue()
  })
  await page.goto(url('/docs/hosting/'))
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await page.locator('#docs-search').click()
  await page.keyboard.type('postgres')
  await page.keyboard.press('Control+a')
  await page.keyboard.press('Backspace')
  await page.waitForFunction(
    () => document.querySelector('.navbar-search')?.getAttribute('data-state') === 'done',
  )
  await page.waitForTimeout(200)
  t.is(await page.locator(options).count(), 0)
  t.is(await page.locator('#docs-search').getAttribute('aria-expanded'), 'false')
})
