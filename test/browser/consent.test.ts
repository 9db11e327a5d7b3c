// Consent gate in a real browser: the consent banner, analytics and tag manager come from the
// site configuration and are served by a separate recording server (a third-party origin), so the
// test sees every request they cause; nothing statistical may reach it before consent.
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import test, { type ExecutionContext } from 'ava'
import type { Page } from 'playwright-core'
import { build } from '../../cli/build.ts'
import { startServer } from '../../cli/serve/serve.ts'
import { closeBrowser, newPage } from '../helpers/browser.ts'
import { baseConfig, createSite, doc } from '../helpers/site.ts'

const fixtures = new URL('../fixtures/consent/', import.meta.url)
const docs = { 'guide/index.md': doc({ title: 'Guide' }, 'Home of the guide.\n') }

/** Paths and queries the third-party server was asked for, in order. */
let requests: string[] = []
let thirdParty: Server
let origin: string

test.before(async () => {
  thirdParty = createServer((req, res) => {
    const path = req.url ?? '/'
    requests.push(path)
    res.setHeader('cache-control', 'no-store')
    const file = /^\/(cmp|analytics|gtag)\.js(\?|$)/.exec(path)?.[1]
    if (file) {
      res.setHeader('content-type', 'text/javascript')
      res.end(readFileSync(new URL(`${file}.js`, fixtures)))
    } else if (path.startsWith('/collect?')) {
      res.statusCode = 204
      res.end()
    } else {
      res.statusCode = 404
      res.end()
    }
  })
  await new Promise<void>((resolve) => thirdParty.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(thirdParty.address() as AddressInfo).port}`
})

test.after.always(async () => {
  await closeBrowser()
  await new Promise((resolve) => thirdParty?.close(resolve))
})

const privacy = () => ({
  consent: { src: `${origin}/cmp.js`, attributes: { 'data-cbid': 'test-domain-group' } },
  analytics: { src: `${origin}/analytics.js`, attributes: { 'data-domain': 'docs.test' } },
  tagManager: { id: 'G-TEST123', src: `${origin}/gtag.js` },
})

/** Builds a throwaway site with this config and serves it; returns the guide page's address. */
const serveSite = async (t: ExecutionContext, config: object) => {
  const site = createSite(t, docs, { config })
  await build({ root: site.root, outDir: site.out, workers: 1 })
  const server = await startServer({ root: site.root, port: 0, host: '127.0.0.1', dir: site.out })
  t.teardown(() => server.close())
  return { site, guide: new URL('/docs/guide/', server.url).href }
}

const statisticsRequests = () => requests.filter((path) => !path.startsWith('/cmp.js'))

const waitForRequest = async (prefix: string) => {
  const deadline = Date.now() + 10_000
  while (!requests.some((path) => path.startsWith(prefix))) {
    if (Date.now() > deadline) throw new Error(`no request for ${prefix}; got ${requests}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Loads (or reloads) and waits until the page and everything it started have settled. */
const settle = async (page: Page, url?: string) => {
  if (url) await page.goto(url)
  else await page.reload()
  await page.waitForLoadState('networkidle')
}

/** The gtag data layer, each Arguments entry as an array (Dates as their type name). */
const dataLayer = (page: Page) =>
  page.evaluate(() =>
    (window.dataLayer ?? []).map((entry) =>
      Array.from(entry as ArrayLike<unknown>).map((v) => (v instanceof Date ? 'Date' : v)),
    ),
  )

const deniedDefault = [
  'consent',
  'default',
  {
    ad_storage: 'denied',
    ad_user_data: 'denied',
    ad_personalization: 'denied',
    analytics_storage: 'denied',
  },
]
const grantedUpdate = ['consent', 'update', { analytics_storage: 'granted' }]
const deniedUpdate = ['consent', 'update', { analytics_storage: 'denied' }]
const grantedLayer = [deniedDefault, grantedUpdate, ['js', 'Date'], ['config', 'G-TEST123']]

const stored = (page: Page) => page.evaluate(() => localStorage.getItem('docs-consent'))
const cookieNames = async (page: Page) =>
  (await page.context().cookies()).map((cookie) => cookie.name).sort()

/** Every script element of a built page, as its attribute string. */
const scriptTags = (html: string) => [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1])

test.serial('without privacy config no consent or statistics script is on the page', async (t) => {
  const { site, guide } = await serveSite(t, baseConfig)
  const html = site.read('docs/guide/index.html')
  const sources = scriptTags(html).flatMap((attrs) => /\bsrc="([^"]*)"/.exec(attrs)?.[1] ?? [])
  t.deepEqual(
    sources.filter((src) => !src.startsWith('/docs/assets/')),
    [],
  )
  t.false(html.includes('keywardConsent'))
  t.false(html.includes('googletagmanager'))
  t.true(html.includes('"privacy":{}'), 'the client sees an empty privacy section')

  const { page, errors } = await newPage(t)
  await settle(page, guide)
  t.deepEqual(await page.evaluate(() => [typeof window.keywardConsent, typeof window.dataLayer]), [
    'undefined',
    'undefined',
  ])
  t.deepEqual(await page.context().cookies(), [])
  t.deepEqual(errors, [])
})

test.serial('with privacy config only the consent script is written into the head', async (t) => {
  const { site } = await serveSite(t, { ...baseConfig, privacy: privacy() })
  const html = site.read('docs/guide/index.html')
  const head = html.slice(html.indexOf('<head>'), html.indexOf('</head>'))
  const tags = scriptTags(head)
  const consent = tags.findIndex((attrs) => attrs.includes(`src="${origin}/cmp.js"`))
  t.true(consent !== -1, 'consent script in the head')
  t.true(tags[consent].includes('data-cbid="test-domain-group"'), 'with its attributes')
  t.true(
    consent < tags.findIndex((attrs) => attrs.includes('type="module"')),
    'before the page module',
  )
  t.true(head.includes('keywardConsent'), 'queue for early consent answers')
  for (const attrs of scriptTags(html)) {
    t.false(attrs.includes('analytics.js'), 'analytics is not in the HTML')
    t.false(attrs.includes('gtag.js'), 'the tag manager is not in the HTML')
  }
})

test.serial('nothing statistical before consent; accept, reload and revoke', async (t) => {
  const { guide } = await serveSite(t, { ...baseConfig, privacy: privacy() })
  const { page, errors } = await newPage(t)
  requests = []
  await settle(page, guide)

  // Before consent: the banner loaded, nothing else reached the third party, no cookie.
  t.deepEqual(requests, ['/cmp.js'])
  t.deepEqual(await page.context().cookies(), [])
  t.is(await page.evaluate(() => document.cookie), '')
  t.deepEqual(await dataLayer(page), [deniedDefault])
  t.is(await stored(page), null)
  t.is(await page.locator('script[src*="analytics.js"], script[src*="gtag.js"]').count(), 0)

  await page.getByRole('button', { name: 'Accept statistics' }).click()
  await waitForRequest('/collect?source=analytics')
  await waitForRequest('/collect?source=gtag')
  t.deepEqual(statisticsRequests().sort(), [
    '/analytics.js',
    '/collect?source=analytics&domain=docs.test',
    '/collect?source=gtag&tid=G-TEST123&script_id=G-TEST123',
    '/gtag.js?id=G-TEST123',
  ])
  t.deepEqual(await cookieNames(page), ['_ga', 'fake_stats'])
  t.deepEqual(await dataLayer(page), grantedLayer)
  t.is(await stored(page), 'statistics')

  // A second grant (a CMP calling back twice) injects nothing more.
  const count = requests.length
  await page.evaluate(() => window.keywardConsent!.grant(['statistics', 'marketing']))
  await page.waitForLoadState('networkidle')
  t.is(requests.length, count)
  t.is(await page.locator('script[src*="analytics.js"], script[src*="gtag.js"]').count(), 2)
  t.deepEqual(await dataLayer(page), grantedLayer)

  // A later page loads the statistics scripts at once, without another click.
  requests = []
  await page.context().clearCookies()
  await settle(page)
  await waitForRequest('/collect?source=analytics')
  await waitForRequest('/collect?source=gtag')
  t.deepEqual(await dataLayer(page), grantedLayer)
  t.deepEqual(await cookieNames(page), ['_ga', 'fake_stats'])
  t.is(await page.locator('script[src*="analytics.js"]').count(), 1, 'injected once')

  // Revoking sets the tag manager back to denied and forgets the grant.
  await page.evaluate(() => window.keywardConsent!.revoke())
  t.deepEqual(await dataLayer(page), [...grantedLayer, deniedUpdate])
  t.is(await stored(page), null)

  // The next page loads nothing statistical again.
  requests = []
  await page.context().clearCookies()
  await settle(page)
  t.deepEqual(requests, ['/cmp.js'])
  t.deepEqual(await page.context().cookies(), [])
  t.deepEqual(await dataLayer(page), [deniedDefault])
  t.deepEqual(errors, [])
})

test.serial('the keyward:consent event grants and withdraws like the API', async (t) => {
  const { guide } = await serveSite(t, { ...baseConfig, privacy: privacy() })
  const { page, errors } = await newPage(t)
  requests = []
  await settle(page, guide)
  await page.evaluate(() =>
    document.dispatchEvent(new CustomEvent('keyward:consent', { detail: { statistics: false } })),
  )
  await page.waitForLoadState('networkidle')
  t.deepEqual(requests, ['/cmp.js'], 'statistics: false loads nothing')

  await page.evaluate(() =>
    document.dispatchEvent(new CustomEvent('keyward:consent', { detail: { statistics: true } })),
  )
  await waitForRequest('/collect?source=analytics')
  await waitForRequest('/collect?source=gtag')
  t.is(await stored(page), 'statistics')
  await page.evaluate(() =>
    window.dispatchEvent(new CustomEvent('keyward:consent', { detail: { statistics: false } })),
  )
  t.deepEqual(await dataLayer(page), [...grantedLayer, deniedUpdate])
  t.is(await stored(page), null)
  t.deepEqual(errors, [])
})

test.serial('a grant given before the page module ran is kept', async (t) => {
  const { guide } = await serveSite(t, { ...baseConfig, privacy: privacy() })
  const { page, errors } = await newPage(t)
  await page.addInitScript(() => sessionStorage.setItem('fake-cmp-early-grant', '1'))
  requests = []
  await page.goto(guide)
  await waitForRequest('/collect?source=analytics')
  await waitForRequest('/collect?source=gtag')
  t.deepEqual(await dataLayer(page), grantedLayer)
  t.is(await stored(page), 'statistics')
  t.deepEqual(errors, [])
})

test.serial('Cookiebot: its statistics answer and events drive the gate', async (t) => {
  const { guide } = await serveSite(t, { ...baseConfig, privacy: privacy() })
  const { page, errors } = await newPage(t)
  requests = []
  await settle(page, guide)
  const answer = (statistics: boolean, event: string) =>
    page.evaluate(
      ([statistics, event]) => {
        window.Cookiebot = { hasResponse: true, consent: { statistics: statistics as boolean } }
        window.dispatchEvent(new Event(event as string))
      },
      [statistics, event],
    )
  await answer(false, 'CookiebotOnAccept')
  await page.waitForLoadState('networkidle')
  t.deepEqual(requests, ['/cmp.js'], 'accepting without statistics loads nothing')

  await answer(true, 'CookiebotOnAccept')
  await waitForRequest('/collect?source=analytics')
  await waitForRequest('/collect?source=gtag')
  t.is(await stored(page), 'statistics')

  await answer(false, 'CookiebotOnDecline')
  t.deepEqual((await dataLayer(page)).at(-1), deniedUpdate)
  t.is(await stored(page), null)
  t.deepEqual(errors, [])
})

test.serial(
  'Cookiebot having declined before the module ran wins over a remembered grant',
  async (t) => {
    const { guide } = await serveSite(t, { ...baseConfig, privacy: privacy() })
    const { page, errors } = await newPage(t)
    await page.addInitScript(() => {
      localStorage.setItem('docs-consent', 'statistics')
      window.Cookiebot = { hasResponse: true, consent: { statistics: false } }
    })
    requests = []
    await settle(page, guide)
    t.deepEqual(requests, ['/cmp.js'])
    t.deepEqual(await page.context().cookies(), [])
    t.deepEqual(await dataLayer(page), [deniedDefault])
    t.is(await stored(page), null, 'the stale grant is forgotten')
    t.deepEqual(errors, [])
  },
)
