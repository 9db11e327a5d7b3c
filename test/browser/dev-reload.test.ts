// The dev server's live reload in a real browser: an edit to the open page shows in place (no
// page load, scroll kept); a change to what every page shows (a sidebar) reloads the page.
import test from 'ava'
import type { Page } from 'playwright-core'
import { startServer } from '../../cli/serve/serve.ts'
import { closeBrowser, hydrated, newPage } from '../helpers/browser.ts'
import { createSite, doc } from '../helpers/site.ts'

test.after.always(closeBrowser)

const long = Array.from({ length: 80 }, (_, i) => `Paragraph ${i} of the usage page.`).join('\n\n')

const docs = {
  'guide/index.md': doc({ title: 'Guide' }, 'Home of the guide.\n'),
  'guide/usage.md': doc({ title: 'Usage' }, `${long}\n\nOld usage text.\n`),
}

const mark = (page: Page) =>
  page.evaluate(() => {
    ;(window as unknown as { __sameDocument: boolean }).__sameDocument = true
  })
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true)
const contentHas = (page: Page, text: string) =>
  page.waitForFunction((t) => !!document.querySelector('.markdown')?.textContent?.includes(t), text)

const open = async (t: import('ava').ExecutionContext) => {
  const site = createSite(t, docs)
  const server = await startServer({ root: site.root, port: 0, host: '127.0.0.1' })
  t.teardown(() => server.close())
  const { page } = await newPage(t)
  await page.goto(new URL('guide/usage/', server.url).href)
  await hydrated(page)
  await new Promise((resolve) => setTimeout(resolve, 500)) // the live-reload connection opens
  await mark(page)
  return { site, server, page }
}

test('an edit to the open page shows in place: no page load, scroll position kept', async (t) => {
  const { site, page } = await open(t)
  await page.evaluate(() => window.scrollTo(0, 600))
  site.write('content/docs/guide/usage.md', doc({ title: 'Usage' }, `${long}\n\nNew usage text.\n`))
  await contentHas(page, 'New usage text.')
  t.true(await sameDocument(page), 'no full page load')
  t.is(await page.evaluate(() => scrollY), 600)
  t.is(await page.title(), 'Usage | Test Docs')
  // A second edit goes the same way.
  site.write('content/docs/guide/usage.md', doc({ title: 'Usage' }, `${long}\n\nNewer text.\n`))
  await contentHas(page, 'Newer text.')
  t.true(await sameDocument(page))
})

test('a title change (the sidebar changes) reloads the open page', async (t) => {
  const { site, page } = await open(t)
  const loaded = page.waitForEvent('load')
  site.write('content/docs/guide/usage.md', doc({ title: 'Using it' }, `${long}\n`))
  await loaded
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Using it')
  t.false(await sameDocument(page), 'a full page load')
  t.is(await page.locator('.doc-layout__sidebar .menu__link--active').textContent(), 'Using it')
})
