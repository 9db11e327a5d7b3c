// Every page of the real site in chromium (doc pages, the search page, the API reference, then
// the 404 page): it hydrates with React with no error or warning in the console, and client
// navigation to it renders the same page as a full load.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { build } from '../../cli/build.ts'
import { type RunningServer, startServer } from '../../cli/serve/serve.ts'
import { closeBrowser, holdReactPart, hydrated, newPage } from '../helpers/browser.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
let server: RunningServer
let out: string
let routes: string[]

test.before(async () => {
  out = mkdtempSync(join(tmpdir(), 'keyward-pages-'))
  const result = await build({ root, outDir: out, workers: 1 })
  routes = result.routes
  server = await startServer({ root, port: 0, host: '127.0.0.1', dir: out })
})

test.after.always(async () => {
  await closeBrowser()
  await server?.close()
  rmSync(out, { recursive: true, force: true })
})

test('every page hydrates without an error, and reached by client navigation shows the same content', async (t) => {
  const { page, errors, console } = await newPage(t)
  t.true(routes.length > 40, `${routes.length} routes`)
  const failures: string[] = []
  const seen = new Map<string, { title: string; heading: string | null }>()
  for (const route of routes) {
    await page.goto(new URL(route, server.url).href)
    await hydrated(page)
    seen.set(route, {
      title: await page.title(),
      heading: await page.locator('h1').first().textContent(),
    })
    if (await page.locator('[data-island-failed]').count())
      failures.push(`${route}: an island failed`)
  }
  // The same pages one after the other through client navigation, in one document.
  await page.goto(new URL('/docs/', server.url).href)
  await hydrated(page)
  await page.evaluate(() => {
    ;(window as unknown as { __sameDocument: boolean }).__sameDocument = true
  })
  for (const [route, { title, heading }] of seen) {
    await page.evaluate((href) => {
      const link = document.createElement('a')
      link.href = href
      document.body.append(link)
      link.click()
      link.remove()
    }, route)
    await page.waitForFunction((path) => location.pathname === path, route)
    await page.waitForFunction(
      (text) => document.querySelector('h1')?.textContent === text,
      heading,
    )
    if ((await page.title()) !== title) failures.push(`${route}: title ${await page.title()}`)
  }
  t.true(
    await page.evaluate(
      () => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true,
    ),
    'no full page load on the way',
  )
  // The 404 page hydrates like the others (React reports any hydration mismatch in the console).
  const beforeMissing = console.length
  const missing = await page.goto(new URL('/docs/no-such-page/', server.url).href)
  t.is(missing?.status(), 404)
  await hydrated(page)
  t.is(await page.locator('[data-island-failed]').count(), 0)
  const logged = console.filter(
    (m, i) =>
      (m.type === 'error' || m.type === 'warning') &&
      // The browser's own line for the 404 answer it was sent to.
      !(i === beforeMissing && m.text.includes('status of 404')),
  )
  t.deepEqual(failures, [])
  t.deepEqual(errors, [])
  t.deepEqual(logged, [])
  t.is(JSON.parse(readFileSync(join(out, 'docs/user/page-data.json'), 'utf8')).route, '/docs/user/')
})

test('the preloaded sidebar is fetched while the page loads, even when the React part comes late', async (t) => {
  const { page, console } = await newPage(t)
  // The React part (the chunk that marks the page hydrated) arrives 5 s late: long after the
  // load event, past the few seconds after which the browser warns about an unused preload.
  await holdReactPart(page, new Promise((resolve) => setTimeout(resolve, 5_000)))
  await page.goto(new URL('/docs/user/', server.url).href)
  const sidebar = await page.getAttribute('link[rel="preload"][as="fetch"]', 'href')
  t.truthy(sidebar)
  const fetched = () =>
    page.evaluate(
      (href) =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name === new URL(href, location.href).href).length,
      sidebar ?? '',
    )
  await hydrated(page)
  t.is(await page.locator('[data-island-failed]').count(), 0)
  t.true((await page.locator('.doc-layout__sidebar a').count()) > 3, 'the sidebar shows its items')
  t.is(await fetched(), 1, 'fetched once')
  // Without the early fetch the browser warns here that the preload went unused.
  t.deepEqual(
    console.filter((m) => m.type === 'error' || m.type === 'warning'),
    [],
  )
})
