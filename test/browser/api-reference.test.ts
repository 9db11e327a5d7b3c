// The API reference in a real browser, built from the repository's content (the server's own
// OpenAPI document): an operation opens by its anchor, a nested schema expands, the filter
// narrows the operations, a copied curl command runs against a fresh server and succeeds, the
// examples stand beside their operation on wide screens and follow it on narrow ones, and the
// navigation marks the operation in view.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import test from 'ava'
import type { Page } from 'playwright-core'
import { build } from '../../cli/build.ts'
import { type RunningServer, startServer } from '../../cli/serve/serve.ts'
import { startTestApi } from '../helpers/api.ts'
import { closeBrowser, hydrated, newPage } from '../helpers/browser.ts'
import { TestClient } from '../helpers/client.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { jwtLogin } from '../helpers/jwt.ts'
import { createActiveUser } from '../helpers/users.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
let server: RunningServer
let out: string

test.before(async () => {
  out = mkdtempSync(join(tmpdir(), 'keyward-api-reference-'))
  await build({ root, outDir: out, workers: 1, cacheDir: false })
  server = await startServer({ root, port: 0, host: '127.0.0.1', dir: out })
})

test.after.always(async () => {
  await closeBrowser()
  await server?.close()
  rmSync(out, { recursive: true, force: true })
})

const url = (path: string) => new URL(path, server.url).href

test('an operation opens by its anchor, with its summary, security, body tree and responses', async (t) => {
  const { page, errors } = await newPage(t)
  await page.goto(url('/docs/api/#post-resources-json'))
  await hydrated(page)
  const operation = page.locator('#post-resources-json')
  const top = await operation.evaluate((element) => element.getBoundingClientRect().top)
  t.true(top >= 0 && top < 200, `the operation is at the top of the window (${top})`)
  t.is(await operation.locator('.api-op__path').textContent(), '/resources.json')
  t.is(await operation.locator('.api-op__summary').textContent(), 'Create a resource')
  t.regex(
    (await operation.locator('.api-op__security').textContent()) ?? '',
    /cookie session with its CSRF token or bearer token/,
  )
  // The request body tree: limits in words, nullable, required, the nested secrets closed.
  const body = operation.locator('#post-resources-json-request')
  const name = body
    .locator('.schema__property', { has: page.locator('.schema__name', { hasText: /^name$/ }) })
    .first()
  t.regex((await name.textContent()) ?? '', /stringnullableat most 255 characters/)
  const secrets = body.locator('details.schema__nested', {
    has: page.locator('summary .schema__name', { hasText: /^secrets$/ }),
  })
  t.regex(
    (await secrets.locator('summary').textContent()) ?? '',
    /list of objects.*required.*exactly 1 item/,
  )
  const data = secrets.locator('.schema__name', { hasText: /^data$/ })
  t.false(await data.isVisible(), 'nested properties start closed')
  await secrets.locator('summary').click()
  t.true(await data.isVisible(), 'clicking the summary expands the nested schema')
  t.regex(
    (await secrets.locator('.schema__property').first().textContent()) ?? '',
    /at most 150000 characters/,
  )
  for (const status of ['400', '401'])
    t.is(await operation.locator(`#post-resources-json-${status}`).count(), 1, status)
  t.deepEqual(errors, [])
})

test('the filter narrows the operations to those matching every word, in the navigation and the content', async (t) => {
  const { page, errors } = await newPage(t)
  await page.goto(url('/docs/api/'))
  await hydrated(page)
  const total = await page.locator('section[data-api-op]').count()
  t.true(total > 100, `${total} operations`)
  await page.locator('.api-filter__input').fill('folders post')
  await page.waitForFunction(() => document.querySelector('.api-filter__count')?.textContent !== '')
  const shown = page.locator('section[data-api-op]:not([hidden])')
  const paths = await shown.locator('.api-op__path').allTextContents()
  t.true(paths.length > 0)
  const methods = await shown.locator('.api-op__title .api-method').allTextContents()
  t.true(
    methods.every((method) => method === 'POST'),
    methods.join(),
  )
  // Each word is in the operation's method, path, summary, id or tag.
  const texts = await shown.evaluateAll((sections) =>
    sections.map((section) => section.getAttribute('data-api-op') ?? ''),
  )
  t.true(
    texts.every((text) => text.includes('folders') && text.includes('post')),
    texts.join('\n'),
  )
  t.is(
    await page.locator('.api-filter__count').textContent(),
    `${paths.length} of ${total} operations`,
  )
  const navShown = await page.locator('.api-ref__nav li[data-api-op]:not([hidden])').count()
  t.is(navShown, paths.length)
  t.false(await page.locator('#tag-roles').isVisible(), 'groups without a match are hidden')
  await page.locator('.api-filter__input').fill('')
  await page.waitForFunction(() => document.querySelector('.api-filter__count')?.textContent === '')
  t.is(await page.locator('section[data-api-op]:not([hidden])').count(), total)
  t.deepEqual(errors, [])
})

test('a copied curl command runs against a fresh server and succeeds', async (t) => {
  const api = await startTestApi(t, { env: { KEYWARD_APP_URL: 'https://vault.keyward.test/' } })
  const user = await createActiveUser(api, 'ada@keyward.test')
  const { answer } = await jwtLogin(
    new TestClient(api.url),
    user.id,
    user,
    'https://vault.keyward.test',
  )
  const { page, context } = await newPage(t)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(server.url).origin,
  })
  await page.goto(url('/docs/api/#get-roles-json'))
  await hydrated(page)
  const operation = page.locator('#get-roles-json')
  const curl = operation.locator('.api-op__examples .code-block').first()
  await curl.hover()
  await curl.locator('.copy-button').click()
  await page.waitForFunction(
    () =>
      document.querySelector('#get-roles-json .api-op__examples .copy-button')?.textContent ===
      'Copied',
  )
  const command = await page.evaluate(() => navigator.clipboard.readText())
  t.regex(
    command,
    /^curl -sS "\$KEYWARD_URL\/roles\.json" \\\n {2}-H "Authorization: Bearer \$KEYWARD_TOKEN"$/,
  )
  const { stdout } = await promisify(execFile)('sh', ['-c', command], {
    env: { ...process.env, KEYWARD_URL: api.url, KEYWARD_TOKEN: answer!.access_token },
  })
  const response = JSON.parse(stdout)
  t.is(response.header.code, 200)
  t.deepEqual(response.body.map((role: { name: string }) => role.name).sort(), [
    'admin',
    'guest',
    'user',
  ])
  for (const role of response.body) t.deepEqual(await clientValidation('RoleEntity', role), {})
})

test('client navigation from a guide opens the reference, whose filter then works', async (t) => {
  const { page, errors } = await newPage(t)
  await page.goto(url('/docs/api/introduction/'))
  await hydrated(page)
  await page.evaluate(() => {
    ;(window as unknown as { marker: boolean }).marker = true
  })
  await page.locator('.doc-layout__sidebar a', { hasText: 'API reference' }).click()
  await page.waitForSelector('#get-roles-json')
  t.true(
    await page.evaluate(() => (window as unknown as { marker?: boolean }).marker === true),
    'no page load: the router rendered the reference',
  )
  // Hydration after client navigation is asynchronous: type once the island is live.
  await page.waitForSelector('.api-filter__input[data-live]')
  await page.locator('.api-filter__input').fill('roles')
  await page.waitForFunction(() => document.querySelector('.api-filter__count')?.textContent !== '')
  t.true(await page.locator('#get-roles-json').isVisible())
  t.false(await page.locator('#get-settings-json').isVisible())
  t.deepEqual(errors, [])
})

test('without JavaScript the reference reads as it is: every operation, the trees open on click', async (t) => {
  const { page } = await newPage(t, { javaScriptEnabled: false })
  await page.goto(url('/docs/api/#put-resources-id-json'))
  t.true(await page.locator('#put-resources-id-json .api-op__summary').isVisible())
  t.false(await page.locator('.api-filter').isVisible(), 'the filter needs scripts: hidden')
  t.true((await page.locator('section[data-api-op]').count()) > 100)
  const secrets = page.locator('#put-resources-id-json-request details.schema__nested').first()
  await secrets.locator('summary').click()
  t.is(await secrets.getAttribute('open'), '')
})

/** Where the examples of an operation sit against its description, and how they are placed. */
const examplesLayout = (page: Page, id: string) =>
  page.evaluate((id) => {
    const section = document.getElementById(id)!
    const main = section.querySelector('.api-op__main')!.getBoundingClientRect()
    const examples = section.querySelector<HTMLElement>('.api-op__examples')!
    const box = examples.getBoundingClientRect()
    return {
      position: getComputedStyle(examples).position,
      beside: box.left >= main.right,
      below: box.top >= main.bottom - 1,
      top: box.top,
      sectionTop: section.getBoundingClientRect().top,
      visible: box.width > 0 && box.height > 0 && box.top < innerHeight && box.bottom > 0,
      blocks: [...examples.querySelectorAll('.code-block')].map((block) => ({
        title: block.querySelector('.code-block__title')?.textContent ?? '',
        copy: !!block.querySelector('.copy-button'),
      })),
    }
  }, id)

test('at 1440 px the examples are a column beside their operation that stays in view while it is read', async (t) => {
  const { page, errors } = await newPage(t, { viewport: { width: 1440, height: 900 } })
  await page.goto(url('/docs/api/#post-resources-json'))
  await hydrated(page)
  const first = await examplesLayout(page, 'post-resources-json')
  t.is(first.position, 'sticky')
  t.true(first.beside, 'the examples are right of the operation')
  t.true(first.visible)
  t.deepEqual(first.blocks, [
    { title: 'Request POST /resources.json', copy: true },
    { title: 'Response 200', copy: true },
  ])
  t.regex(
    (await page.locator('#post-resources-json .api-op__examples code').first().textContent()) ?? '',
    /^curl -sS -X POST "\$KEYWARD_URL\/resources\.json".*--data '\{/s,
  )
  // Read further down the (long) operation: its examples stay below the navbar.
  await page.evaluate(() => {
    const section = document.getElementById('post-resources-json')!
    scrollBy(0, section.getBoundingClientRect().top + 600)
  })
  await page.waitForFunction(
    () => document.getElementById('post-resources-json')!.getBoundingClientRect().top < -500,
  )
  const scrolled = await examplesLayout(page, 'post-resources-json')
  t.true(scrolled.sectionTop < -500, `the operation's top is out of view (${scrolled.sectionTop})`)
  t.true(
    scrolled.top > 0 && scrolled.top < 120,
    `the examples are held at the top (${scrolled.top})`,
  )
  t.true(scrolled.visible)
  t.deepEqual(errors, [])
})

test('at 800 px the examples follow their operation, with no column beside it', async (t) => {
  const { page, errors } = await newPage(t, { viewport: { width: 800, height: 900 } })
  await page.goto(url('/docs/api/#post-resources-json'))
  await hydrated(page)
  const layout = await examplesLayout(page, 'post-resources-json')
  t.is(layout.position, 'static')
  t.false(layout.beside)
  t.true(layout.below, 'the examples come after the description')
  t.is(layout.blocks.length, 2)
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  t.true(width <= 800, `no sideways scroll (${width})`)
  t.deepEqual(errors, [])
})

test('the navigation marks the operation in view, and follows the reader to another one', async (t) => {
  const { page, errors } = await newPage(t, { viewport: { width: 1440, height: 900 } })
  await page.goto(url('/docs/api/#get-roles-json'))
  await hydrated(page)
  const current = page.locator('.api-ref__nav a[aria-current="true"]')
  await page.waitForFunction(
    () =>
      document.querySelector('.api-ref__nav a[aria-current="true"]')?.getAttribute('href') ===
      '#get-roles-json',
  )
  t.is(await current.count(), 1)
  // Scroll (no click, no hash change) to an operation far down the page.
  const target = await page.evaluate(() => {
    const sections = [...document.querySelectorAll('section.api-op')]
    const section = sections[sections.length - 5]
    scrollTo(0, scrollY + section.getBoundingClientRect().top - 80)
    return section.id
  })
  t.not(target, 'get-roles-json')
  await page.waitForFunction(
    (target) =>
      document.querySelector('.api-ref__nav a[aria-current="true"]')?.getAttribute('href') ===
      `#${target}`,
    target,
  )
  t.is(await current.count(), 1)
  t.is(new URL(page.url()).hash, '#get-roles-json', 'the address is left alone')
  // The navigation scrolled its own list to keep the mark in sight.
  const inSight = await page.evaluate(() => {
    const nav = document.querySelector('.api-ref__nav')!.getBoundingClientRect()
    const mark = document
      .querySelector('.api-ref__nav a[aria-current="true"]')!
      .getBoundingClientRect()
    return mark.top >= nav.top && mark.bottom <= nav.bottom
  })
  t.true(inSight)
  // Marked in the style too: not as the links around it.
  const looks = await page.evaluate(() =>
    [
      ...document.querySelectorAll('.api-ref__nav li[data-api-op] > a[aria-current="true"]'),
      ...[
        ...document.querySelectorAll('.api-ref__nav li[data-api-op] > a:not([aria-current])'),
      ].slice(0, 3),
    ].map((link) => `${getComputedStyle(link).boxShadow} ${getComputedStyle(link).color}`),
  )
  const [marked, ...others] = looks
  t.false(others.includes(marked), `${marked} / ${others.join(' / ')}`)
  t.deepEqual(errors, [])
})
