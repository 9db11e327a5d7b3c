// Client navigation in a real browser: no full reload, title, focus, scroll and history;
// prefetching once per path and never on slow or data-saving connections; the delayed progress
// bar; fallbacks and error screens; the wrong-base-URL message; smooth-scroll fallback.
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'ava'
import type { Page } from 'playwright-core'
import { createStaticHandler } from '../../cli/serve/static-server.ts'
import { closeBrowser, hydrated, newPage } from '../helpers/browser.ts'
import { type ServedSite, serveSitesForFile } from '../helpers/docs-site.ts'

const sites = serveSitesForFile(test, closeBrowser)
const site: ServedSite = {
  url: (path) => sites()[0].url(path),
  get out() {
    return sites()[0].out
  },
}

/** Page-data and document requests the page makes from now on. */
const recordRequests = (page: Page) => {
  const requests: { url: string; type: string }[] = []
  page.on('request', (request) =>
    requests.push({ url: new URL(request.url()).pathname, type: request.resourceType() }),
  )
  return {
    documents: () => requests.filter((r) => r.type === 'document').map((r) => r.url),
    data: (route: string) => requests.filter((r) => r.url === `${route}page-data.json`).length,
    allData: () => requests.filter((r) => r.url.endsWith('/page-data.json')).length,
  }
}

const mark = (page: Page) =>
  page.evaluate(() => {
    ;(window as unknown as { __sameDocument: boolean }).__sameDocument = true
  })
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true)

test('a link inside the site swaps the page without a reload: title, sidebar, focus and scroll follow', async (t) => {
  const { page, errors } = await newPage(t)
  await page.goto(site.url('/docs/guide/'))
  await hydrated(page)
  await mark(page)
  const requests = recordRequests(page)
  await page.evaluate(() => window.scrollTo(0, 1500))
  await page.locator('.doc-layout__sidebar').getByRole('link', { name: 'Third page' }).click()
  await page.waitForURL(/\/docs\/guide\/third\/$/)
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Third page')
  t.true(await sameDocument(page), 'no full page load')
  t.deepEqual(requests.documents(), [])
  t.is(await page.title(), 'Third page | Test Docs')
  t.is(await page.evaluate(() => scrollY), 0)
  t.is(await page.evaluate(() => document.activeElement?.id), 'main-content')
  t.is(await page.locator('.doc-layout__sidebar .menu__link--active').textContent(), 'Third page')
  t.is(await page.locator('.toc__link').first().textContent(), 'Part one')

  await page.goBack()
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Guide')
  t.is(await page.evaluate(() => scrollY), 1500, 'back restores the scroll position')
  t.is(await page.title(), 'Guide | Test Docs')
  await page.goForward()
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Third page')
  t.true(await sameDocument(page))
  t.deepEqual(errors, [])
})

test('a reload keeps the scroll position', async (t) => {
  const { page } = await newPage(t)
  await page.goto(site.url('/docs/guide/'))
  await hydrated(page)
  await page.evaluate(() => window.scrollTo(0, 1234))
  await page.waitForTimeout(400) // the reader stops scrolling, then reloads
  await page.reload()
  await hydrated(page)
  t.is(await page.evaluate(() => scrollY), 1234)
  await page.goto(site.url('/docs/guide/second/'))
  t.is(await page.evaluate(() => scrollY), 0, 'a new visit starts at the top')
})

test('anchors: a link to another page’s heading lands on it; an in-page anchor scrolls and enters history', async (t) => {
  const { page } = await newPage(t)
  await page.goto(site.url('/docs/guide/second/'))
  await hydrated(page)
  await mark(page)
  await page.getByRole('link', { name: 'the third page' }).click()
  await page.waitForURL(/\/docs\/guide\/third\/#part-two$/)
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Third page')
  const top = await page.locator('#part-two').evaluate((h) => h.getBoundingClientRect().top)
  t.true(top >= 0 && top < 120, `heading at ${top}px`)
  await page.getByRole('link', { name: 'Guide', exact: true }).first().click()
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Guide')
  await page.getByRole('link', { name: 'section 3', exact: true }).click()
  await page.waitForURL(/#section-3$/)
  // The smooth scroll ends with the heading just below the navbar.
  await page.waitForFunction(() => {
    const top = document.getElementById('section-3')!.getBoundingClientRect().top
    return top > 60 && top < 80
  })
  await page.goBack()
  await page.waitForFunction(() => location.hash === '' && scrollY === 0)
  t.true(await sameDocument(page))
})

test('next-page data is prefetched once per path on hover and for a few links in view', async (t) => {
  const { page } = await newPage(t)
  const requests = recordRequests(page)
  await page.goto(site.url('/docs/guide/second/'))
  await hydrated(page)
  // The content's links and the previous/next links are in view; the next page comes first.
  await page.waitForFunction(() =>
    performance
      .getEntriesByType('resource')
      .some((e) => e.name.endsWith('/docs/guide/third/page-data.json')),
  )
  await page.waitForTimeout(500)
  t.is(requests.data('/docs/guide/big/page-01/'), 0, 'hidden in a closed category')
  t.is(requests.data('/docs/guide/tabs/'), 0, 'a sidebar link in view is not fetched ahead')
  t.true(requests.allData() <= 3, `${requests.allData()} page-data files, at most 3`)
  const link = page.getByRole('link', { name: 'the third page' })
  t.is(requests.data('/docs/guide/third/'), 1, 'in view, so already prefetched')
  await link.hover()
  await page.mouse.move(0, 0)
  await link.hover()
  await page.waitForTimeout(200)
  t.is(requests.data('/docs/guide/third/'), 1, 'once per path')
  await link.click()
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Third page')
  t.is(requests.data('/docs/guide/third/'), 1, 'the navigation reuses the prefetched data')
})

for (const [name, connection] of [
  ['a 2G connection', { effectiveType: '2g', saveData: false }],
  ['data saving', { effectiveType: '4g', saveData: true }],
] as const)
  test(`no prefetching on ${name}, but links still navigate in place`, async (t) => {
    const { page } = await newPage(t)
    await page.addInitScript((value) => {
      Object.defineProperty(navigator, 'connection', { value, configurable: true })
    }, connection)
    const requests = recordRequests(page)
    await page.goto(site.url('/docs/guide/second/'))
    await hydrated(page)
    await mark(page)
    await page.getByRole('link', { name: 'the third page' }).hover()
    await page.waitForTimeout(500)
    t.is(requests.data('/docs/guide/third/'), 0)
    t.is(requests.data('/docs/guide/big/page-01/'), 0)
    await page.getByRole('link', { name: 'the third page' }).click()
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Third page')
    t.true(await sameDocument(page))
    t.is(requests.data('/docs/guide/third/'), 1)
  })

/** Records when the progress bar appears and its first value. */
const watchProgress = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __progress: { shownAt?: number; first?: string } }
    w.__progress = {}
    new MutationObserver(() => {
      const bar = document.querySelector('.route-progress')
      if (bar && w.__progress.shownAt === undefined) {
        w.__progress.shownAt = performance.now()
        w.__progress.first = bar.getAttribute('aria-valuenow') ?? ''
      }
    }).observe(document.body, { childList: true })
  })

test('the progress bar shows only when a navigation takes longer than 200 ms', async (t) => {
  const { page, context } = await newPage(t)
  await page.goto(site.url('/docs/guide/'))
  await hydrated(page)
  await watchProgress(page)
  await page.getByRole('link', { name: 'the second page' }).click()
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Second page')
  await page.waitForTimeout(300)
  t.deepEqual(
    await page.evaluate(() => (window as unknown as { __progress: object }).__progress),
    {},
    'a fast navigation shows no bar',
  )

  const cdp = await context.newCDPSession(page)
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 2000,
    downloadThroughput: 50_000,
    uploadThroughput: 50_000,
  })
  await watchProgress(page)
  // A link in a closed category has not been prefetched; once shown, its prefetch is as slow
  // as the network, and the navigation waits for it.
  await page.locator('.doc-layout__sidebar summary', { hasText: 'Big' }).click()
  const link = page.locator('.doc-layout__sidebar').getByRole('link', { name: 'Big page 20' })
  await link.waitFor()
  const clickedAt = await page.evaluate(() => performance.now())
  await link.click()
  await page.waitForSelector('.route-progress')
  const progress = await page.evaluate(
    () => (window as unknown as { __progress: { shownAt: number; first: string } }).__progress,
  )
  t.true(progress.shownAt - clickedAt >= 200, `shown after ${progress.shownAt - clickedAt} ms`)
  t.is(progress.first, '0.08')
  t.regex(
    (await page.locator('.route-progress').getAttribute('style')) ?? '',
    /transition: transform 200ms/,
    'moves in 200 ms steps',
  )
  // It creeps forward every 800 ms while the page is still loading.
  await page.waitForFunction(
    () => Number(document.querySelector('.route-progress')?.getAttribute('aria-valuenow')) > 0.08,
    null,
    { timeout: 1500 },
  )
  t.true(await page.locator('.route-progress').isVisible())
  await page.waitForFunction(
    () => document.querySelector('h1')?.textContent === 'Big page 20',
    null,
    {
      timeout: 15_000,
    },
  )
  await page.waitForFunction(() => !document.querySelector('.route-progress'))
  t.is(await page.locator('h1').textContent(), 'Big page 20', 'the bar goes once the page is in')
})

test('when the next page’s data cannot load, a warning is logged and the page loads in full', async (t) => {
  const { page, console } = await newPage(t)
  await page.route('**/docs/guide/third/page-data.json', (route) => route.abort())
  const requests = recordRequests(page)
  await page.goto(site.url('/docs/guide/second/'))
  await hydrated(page)
  await mark(page)
  await page.getByRole('link', { name: 'the third page' }).click()
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Third page')
  t.false(await sameDocument(page), 'a full page load')
  t.true(requests.documents().includes('/docs/guide/third/'))
  t.true(
    console.some(
      (m) => m.type === 'warning' && m.text.includes('Could not load /docs/guide/third/'),
    ),
  )
})

test('a page whose rendering throws shows the crash screen; Try again renders it once it works', async (t) => {
  const { page, console } = await newPage(t)
  let broken = true
  await page.route('**/docs/guide/third/page-data.json', async (route) => {
    // Playwright's own client may reuse a kept-alive socket the server has just closed
    // (ECONNRESET): that request is its, not the page's, so it is sent once more.
    const response = await route.fetch().catch(() => route.fetch())
    const data = await response.json()
    await route.fulfill({ response, json: broken ? { ...data, breadcrumbs: 5 } : data })
  })
  await page.goto(site.url('/docs/guide/second/'))
  await hydrated(page)
  await page.getByRole('link', { name: 'the third page' }).click()
  await page.waitForSelector('.page-crash')
  t.is(await page.locator('.page-crash h1').textContent(), 'This page crashed.')
  t.regex((await page.locator('.page-crash__error').textContent()) ?? '', /map is not a function/)
  t.is(await page.title(), 'Page Error')
  t.true(console.some((m) => m.type === 'error' && m.text.includes('This page crashed')))
  broken = false
  await page.getByRole('button', { name: 'Try again' }).click()
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Third page')
  t.is(await page.title(), 'Third page | Test Docs')
})

test('when the search page’s code fails to load, the error and a Retry button that reloads are shown', async (t) => {
  const { page } = await newPage(t)
  let fail = true
  await page.route('**/assets/js/search-page.*.js', (route) =>
    fail ? route.abort() : route.continue(),
  )
  await page.goto(site.url('/docs/search/?q=keyward'))
  const alert = page.locator('.page-loader__error')
  await alert.waitFor()
  t.true(((await alert.textContent()) ?? '').length > 'Retry'.length, 'shows the error text')
  fail = false
  await Promise.all([
    page.waitForEvent('load'),
    alert.getByRole('button', { name: 'Retry' }).click(),
  ])
  await page.waitForSelector('.search-result')
  t.is(await page.locator('.page-loader__error').count(), 0)
})

test('an island that fails to hydrate is logged and keeps its server-rendered HTML', async (t) => {
  const { page, console } = await newPage(t)
  await page.route('**/docs/guide/', async (route) => {
    const response = await route.fetch()
    // The table of contents hydrates with the items of the page's client data.
    const html = (await response.text()).replace('"toc":[', '"toc":5,"was":[')
    await route.fulfill({ response, body: html })
  })
  await page.goto(site.url('/docs/guide/'))
  await hydrated(page)
  await page.waitForSelector('[data-island="toc"][data-island-failed]')
  t.true(
    console.some(
      (m) =>
        m.type === 'error' && m.text.includes('Recoverable hydration error in the "toc" island'),
    ),
  )
  t.is(await page.locator('.toc__link').count(), 20, 'the server HTML stays')
  t.is(await page.locator('.navbar .color-mode-toggle').isEnabled(), true, 'other islands hydrated')
})

test('served under another base URL, the page says it did not load properly and suggests the base URL', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'keyward-base-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  cpSync(join(site.out, 'docs'), join(root, 'handbook'), { recursive: true })
  const server = createServer(createStaticHandler({ dir: root, baseUrl: '/handbook/' }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const { page } = await newPage(t)
  await page.goto(
    `http://127.0.0.1:${(server.address() as AddressInfo).port}/handbook/guide/second/`,
  )
  const banner = page.locator('#base-url-issue')
  await banner.waitFor()
  t.is(await banner.getAttribute('role'), 'alert')
  const text = (await banner.textContent()) ?? ''
  t.true(text.startsWith('This site did not load properly.'), text)
  t.true(text.includes('Set baseUrl in content/site.config.ts to /handbook/ and rebuild'), text)

  const { page: right } = await newPage(t)
  await right.goto(site.url('/docs/guide/second/'))
  await hydrated(right)
  t.is(await right.locator('#base-url-issue').count(), 0, 'no message under the right base URL')
})

test('without native smooth scrolling, each frame moves 85 percent of the remaining distance', async (t) => {
  const { page } = await newPage(t)
  await page.addInitScript(() => {
    // A browser without smooth scrolling: the feature test says no.
    const supports = CSS.supports.bind(CSS)
    CSS.supports = ((...args: [string, string?]) =>
      args[0] === 'scroll-behavior'
        ? false
        : supports(...(args as [string, string]))) as typeof CSS.supports
    const positions: number[] = []
    ;(window as unknown as { __positions: number[] }).__positions = positions
    addEventListener('scroll', () => positions.push(scrollY))
  })
  await page.goto(site.url('/docs/guide/'))
  await hydrated(page)
  t.false(await page.evaluate(() => CSS.supports('scroll-behavior', 'smooth')))
  await page.getByRole('link', { name: 'section 3', exact: true }).click()
  await page.waitForFunction(() => location.hash === '#section-3')
  await page.waitForTimeout(600)
  const positions = await page.evaluate(
    () => (window as unknown as { __positions: number[] }).__positions,
  )
  const target = positions.at(-1)!
  t.true(positions.length >= 4, `${positions.length} frames`)
  const [first, second] = positions
  t.true(Math.abs(first - 0.85 * target) <= 2, `first frame at ${first} of ${target}`)
  t.true(Math.abs(target - second - 0.15 * (target - first)) <= 2, `second frame at ${second}`)
})
