// The project's own site (content/) in a real browser: the navbar fits every width from a phone
// to a wide laptop (links that do not fit move into "More", reachable by keyboard), and axe-core
// finds nothing serious or critical on a doc page, the search page and the API reference, in
// light and in dark mode.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import type { Page } from 'playwright-core'
import { build } from '../../cli/build.ts'
import { resolveConfig } from '../../cli/config/config.ts'
import { type RunningServer, startServer } from '../../cli/serve/serve.ts'
import { seriousAxeFindings } from '../helpers/axe.ts'
import { closeBrowser, newPage } from '../helpers/browser.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
let server: RunningServer
let out: string
let navbarLabels: string[]

test.before(async () => {
  out = mkdtempSync(join(tmpdir(), 'keyward-project-site-'))
  await build({ root, outDir: out, workers: 1, cacheDir: false })
  server = await startServer({ root, port: 0, host: '127.0.0.1', dir: out })
  navbarLabels = (await resolveConfig({ root })).site.navbar.items.map((item) => item.label)
})

test.after.always(async () => {
  await closeBrowser()
  await server?.close()
  rmSync(out, { recursive: true, force: true })
})

const url = (path: string) => new URL(path, server.url).href

/**
 * Opens a page of the site and waits for its islands. The tests run one at a time, with long
 * waits: on a machine shared by many jobs a page of this site took over 30 s to load while
 * the file's tests ran side by side.
 */
const open = async (page: Page, path: string) => {
  await page.goto(url(path), { timeout: 3 * 60_000 })
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', null, {
    timeout: 3 * 60_000,
  })
}

/** What the navbar shows: links on the row (wholly inside their list), and what sticks out. */
const navbarLayout = (page: Page) =>
  // No named functions inside: the test's TypeScript loader would wrap them in a helper the
  // page lacks.
  page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const title = document.querySelector('.navbar__title')!
    const lineHeight = Number.parseFloat(getComputedStyle(title).lineHeight)
    return {
      scroll: document.documentElement.scrollWidth,
      width,
      onRow: [...document.querySelectorAll('.navbar__links')].flatMap((list) =>
        [...list.querySelectorAll('a')]
          .filter((a) => {
            const box = list.getBoundingClientRect()
            const r = a.getBoundingClientRect()
            return r.width > 0 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5
          })
          .map((a) => a.textContent),
      ),
      offscreen: [...document.querySelectorAll('.navbar a, .navbar button, .navbar input')]
        .filter((el) => {
          const r = el.getBoundingClientRect()
          return r.width > 0 && (r.right > width + 0.5 || r.left < -0.5)
        })
        .map((el) => el.textContent?.trim() || el.getAttribute('aria-label')),
      titleLines: Math.round(title.getBoundingClientRect().height / lineHeight),
    }
  })

for (const width of [320, 997, 1100, 1280, 1366, 1440]) {
  test.serial(
    `at ${width} px nothing scrolls sideways, the brand is on one line and every navbar link is on the row or in a menu`,
    async (t) => {
      const { page, errors } = await newPage(t, { viewport: { width, height: 800 } })
      await open(page, '/docs/hosting/install/')
      const layout = await navbarLayout(page)
      t.true(layout.scroll <= layout.width, `${layout.scroll} > ${layout.width}`)
      t.deepEqual(layout.offscreen, [])
      t.is(layout.titleLines, 1)
      if (width < 997) {
        t.deepEqual(layout.onRow, [])
        await page.getByRole('button', { name: 'Open the navigation menu' }).click()
        const menu = page.locator('#navbar-sidebar')
        if (await menu.getByRole('button', { name: '← Back to main menu' }).isVisible())
          await menu.getByRole('button', { name: '← Back to main menu' }).click()
        t.deepEqual(await menu.locator('[data-panel="primary"] .menu__link').allTextContents(), [
          ...navbarLabels,
        ])
        t.true(await menu.locator('.color-mode-toggle').isVisible())
        const box = await menu.boundingBox()
        t.true(box !== null && box.x + box.width <= width, 'the menu fits the window')
      } else {
        const more = page.locator('#navbar-more-menu [role="menuitem"]')
        const inMore = await more.allTextContents()
        t.deepEqual(
          [...layout.onRow, ...inMore].sort(),
          [...navbarLabels].sort(),
          `row: ${layout.onRow.join(', ')}; more: ${inMore.join(', ')}`,
        )
        // Nothing is moved that would fit: the row is full enough that the next link would not.
        if (inMore.length) t.true(layout.onRow.length < navbarLabels.length)
      }
      t.deepEqual(errors, [])
    },
  )
}

test.serial(
  'growing and shrinking the window moves links out of "More" and back, without scrolling sideways',
  async (t) => {
    const { page } = await newPage(t, { viewport: { width: 1000, height: 800 } })
    await open(page, '/docs/hosting/install/')
    const narrow = (await navbarLayout(page)).onRow
    await page.setViewportSize({ width: 1600, height: 800 })
    await page.waitForFunction(() => !document.getElementById('navbar-more-menu'))
    t.deepEqual((await navbarLayout(page)).onRow, navbarLabels)
    await page.setViewportSize({ width: 1000, height: 800 })
    await page.waitForSelector('#navbar-more-menu', { state: 'attached' })
    const again = await navbarLayout(page)
    t.deepEqual(again.onRow, narrow)
    t.true(again.scroll <= again.width)
  },
)

test.serial(
  'links moved into "More" are reached with the keyboard alone and open their page',
  async (t) => {
    const { page } = await newPage(t, { viewport: { width: 1100, height: 800 } })
    await open(page, '/docs/hosting/install/')
    const moved = await page.locator('#navbar-more-menu [role="menuitem"]').allTextContents()
    t.true(moved.length > 0, 'at 1,100 px some links are in "More"')
    // From the brand, Tab reaches the "More" button.
    await page.locator('.navbar__brand').focus()
    let reached = false
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press('Tab')
      reached = await page.evaluate(() => document.activeElement?.id === 'navbar-more-button')
    }
    t.true(reached, 'Tab reaches the "More" button')
    await page.keyboard.press('Enter')
    // The menu moves the focus to its first item once it has opened.
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'menuitem')
    const seen: string[] = []
    for (let i = 0; i < moved.length; i++) {
      seen.push(await page.evaluate(() => document.activeElement?.textContent ?? ''))
      await page.keyboard.press('ArrowDown')
    }
    t.deepEqual(seen, moved)
    // Back on the first item (the arrows wrap); find a guide among the moved links and open it.
    const guide = moved.findIndex((label) => label.endsWith('guide'))
    t.true(guide >= 0, moved.join(', '))
    for (let i = 0; i < guide; i++) await page.keyboard.press('ArrowDown')
    const href = await page.evaluate(() => document.activeElement?.getAttribute('href'))
    await page.keyboard.press('Enter')
    await page.waitForURL((u) => u.pathname === href)
    t.is(new URL(page.url()).pathname, href ?? '')
  },
)

/**
 * On the API reference, the parts axe reads: the navigation and filter (with the operation in
 * view marked), and one operation of each method plus one with a required property and the
 * one opened, whose parameters table sits beside the examples column. The page holds over two
 * hundred operations built from the same components; all of them take axe minutes on a loaded
 * machine.
 */
const apiSample = (page: Page) =>
  page.evaluate(() => {
    const ids = new Set<string>([location.hash])
    for (const selector of [
      '.api-method--get',
      '.api-method--post',
      '.api-method--put',
      '.api-method--delete',
      '.schema__flag--required',
    ]) {
      const op = document.querySelector(`.api-op:has(${selector})`)
      if (op) ids.add(`#${op.id}`)
    }
    return ['.api-ref__nav', ...ids]
  })

for (const mode of ['light', 'dark'])
  for (const [name, path, ready] of [
    ['a doc page', '/docs/hosting/install/', '.doc-layout__sidebar'],
    ['the search page with results', '/docs/search/?q=smtp+server', '.search-result mark'],
    ['the API reference', '/docs/api/#post-resources-json', '.api-ref__nav a[aria-current]'],
  ])
    test.serial(`axe-core finds nothing serious on ${name} in ${mode} mode`, async (t) => {
      // The API reference is a big page: on a loaded machine it takes more than the default 30 s.
      t.timeout(5 * 60_000)
      // The API reference at a desktop width where its examples are a column of their own.
      const api = path.startsWith('/docs/api/')
      const { page } = await newPage(t, api ? { viewport: { width: 1440, height: 900 } } : {})
      await page.addInitScript((choice) => localStorage.setItem('theme', choice), mode)
      await open(page, path)
      await page.waitForSelector(ready)
      t.is(await page.evaluate(() => document.documentElement.dataset.theme), mode)
      const include = api ? await apiSample(page) : undefined
      if (include) t.true(include.length >= 6, include.join(' '))
      t.deepEqual(await seriousAxeFindings(page, include), [])
    })
