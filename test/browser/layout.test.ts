// The shared layout in a real browser: colour mode, announcement bar, navbar hiding,
// dropdowns, the mobile menu, sidebar collapse, the table of contents and keyboard access.
import test from 'ava'
import type { Page } from 'playwright-core'
import { closeBrowser, hydrated, newPage } from '../helpers/browser.ts'
import { serveSitesForFile } from '../helpers/docs-site.ts'

const sites = serveSitesForFile(
  test,
  closeBrowser,
  {},
  { colorMode: { defaultMode: 'dark', respectPrefersColorScheme: true } },
)
const site = { url: (path: string) => sites()[0].url(path) }
const systemSite = { url: (path: string) => sites()[1].url(path) }

const theme = (page: Page) =>
  page.evaluate(() => [
    document.documentElement.dataset.themeChoice,
    document.documentElement.dataset.theme,
  ])

/** Records an attribute of <html> at the moment <body> is first parsed, before any paint. */
const recordBeforeBody = (page: Page, attribute: string) =>
  page.addInitScript((name) => {
    new MutationObserver((_, observer) => {
      if (!document.body) return
      ;(window as unknown as Record<string, unknown>).__atBody =
        document.documentElement.getAttribute(name)
      observer.disconnect()
    }).observe(document, { childList: true, subtree: true })
  }, attribute)

test('colour mode is dark by default; the toggle switches light and dark, stores the choice and applies it before first paint', async (t) => {
  const { page } = await newPage(t)
  await page.goto(site.url('/docs/guide/'))
  await hydrated(page)
  t.deepEqual(await theme(page), ['dark', 'dark'])
  const toggle = page.locator('.navbar .color-mode-toggle')
  t.is(await toggle.getAttribute('aria-label'), 'Switch to light mode (currently dark mode)')
  await toggle.click()
  t.deepEqual(await theme(page), ['light', 'light'])
  t.is(await page.evaluate(() => localStorage.getItem('theme')), 'light')
  t.is(await toggle.getAttribute('aria-label'), 'Switch to dark mode (currently light mode)')
  await recordBeforeBody(page, 'data-theme')
  await page.reload()
  t.is(await page.evaluate(() => (window as unknown as { __atBody: string }).__atBody), 'light')
  await hydrated(page)
  await page.locator('.navbar .color-mode-toggle').click()
  t.deepEqual(await theme(page), ['dark', 'dark'])
})

test('the colour mode follows a change made in another tab', async (t) => {
  const { page, context } = await newPage(t)
  await page.goto(site.url('/docs/guide/'))
  const other = await context.newPage()
  await other.goto(site.url('/docs/guide/second/'))
  await Promise.all([hydrated(page), hydrated(other)])
  await page.locator('.navbar .color-mode-toggle').click()
  await other.waitForFunction(() => document.documentElement.dataset.theme === 'light')
  t.deepEqual(await theme(other), ['light', 'light'])
  t.is(
    await other.locator('.navbar .color-mode-toggle').getAttribute('data-choice'),
    'light',
    'the other tab’s toggle shows the new choice',
  )
})

test('an unexpected stored colour mode is reported and the default applies', async (t) => {
  const { page, console } = await newPage(t)
  await page.addInitScript(() => localStorage.setItem('theme', 'purple'))
  await page.goto(site.url('/docs/guide/'))
  await hydrated(page)
  t.deepEqual(await theme(page), ['dark', 'dark'])
  t.true(console.some((m) => m.type === 'error' && m.text.includes('Unexpected colour mode value')))
})

test('respecting the OS preference, the toggle cycles light, dark, system, and system follows the OS live', async (t) => {
  const { page } = await newPage(t, { colorScheme: 'light' })
  await page.goto(systemSite.url('/docs/guide/'))
  await hydrated(page)
  t.deepEqual(await theme(page), ['system', 'light'])
  const toggle = page.locator('.navbar .color-mode-toggle')
  const seen: (string | undefined)[][] = []
  for (let i = 0; i < 3; i++) {
    await toggle.click()
    seen.push(await theme(page))
  }
  t.deepEqual(seen, [
    ['light', 'light'],
    ['dark', 'dark'],
    ['system', 'light'],
  ])
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark')
  t.deepEqual(await theme(page), ['system', 'dark'])
})

test('the announcement bar closes, stays closed on later pages, and is hidden before first paint', async (t) => {
  const { page } = await newPage(t)
  await page.goto(site.url('/docs/guide/'))
  await hydrated(page)
  const bar = page.locator('.announcement')
  t.is(await bar.textContent(), 'Keyward 1.0 is out.×')
  await page.getByRole('button', { name: 'Close the announcement' }).press('Enter')
  t.is(await bar.count(), 0)
  t.is(
    await page.evaluate(() => localStorage.getItem('docs-announcement-dismissed-release-1')),
    'true',
  )
  await recordBeforeBody(page, 'data-announcement-dismissed')
  await page.goto(site.url('/docs/guide/second/'))
  t.is(await page.evaluate(() => (window as unknown as { __atBody: string }).__atBody), '')
  t.false(await page.locator('.announcement').isVisible())
})

test('the navbar hides on scroll down only past its own height and returns on scroll up', async (t) => {
  const { page } = await newPage(t)
  await page.goto(site.url('/docs/guide/'))
  await hydrated(page)
  const hidden = () =>
    page.locator('.navbar').evaluate((nav) => nav.classList.contains('navbar--hidden'))
  const height = await page.locator('.navbar').evaluate((nav) => (nav as HTMLElement).offsetHeight)
  await page.mouse.wheel(0, height - 20)
  await page.waitForFunction((y) => scrollY >= y, height - 20)
  await page.waitForTimeout(100)
  t.false(await hidden(), 'not past its height yet')
  await page.mouse.wheel(0, 600)
  await page.waitForFunction(() => document.querySelector('.navbar--hidden'))
  t.true(await hidden())
  await page.mouse.wheel(0, -200)
  await page.waitForFunction(() => !document.querySelector('.navbar--hidden'))
  t.false(await hidden())
  await page.mouse.wheel(0, 600)
  await page.waitForFunction(() => document.querySelector('.navbar--hidden'))
  await page.keyboard.press('Control+k')
  await page.waitForFunction(() => !document.querySelector('.navbar--hidden'))
  t.is(
    await page.evaluate(() => document.activeElement?.id),
    'docs-search',
    'Ctrl+K brings it back',
  )
})

test('dropdowns: the version and language menus work with the keyboard and the preferred version is remembered', async (t) => {
  const { page } = await newPage(t)
  await page.goto(site.url('/docs/guide/'))
  await hydrated(page)
  const button = page.locator('#version-dropdown-button')
  t.is(await button.textContent(), 'Next')
  t.is(await button.getAttribute('aria-haspopup'), 'menu')
  t.is(await button.getAttribute('aria-expanded'), 'false')
  await button.focus()
  await page.keyboard.press('Enter')
  t.is(await button.getAttribute('aria-expanded'), 'true')
  await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'menuitem')
  t.is(await page.evaluate(() => document.activeElement?.textContent), 'Next')
  await page.keyboard.press('Escape')
  t.is(await button.getAttribute('aria-expanded'), 'false')
  t.is(await page.evaluate(() => document.activeElement?.id), 'version-dropdown-button')
  await button.click()
  await page.getByRole('menuitem', { name: 'Next' }).click()
  t.is(await page.evaluate(() => localStorage.getItem('docs-preferred-version-default')), 'current')
  const language = page.locator('#locale-dropdown-button')
  t.is(await language.textContent(), 'English')
  await language.focus()
  await page.keyboard.press('ArrowDown')
  t.true(await page.locator('#locale-dropdown-menu').isVisible())
  t.is(await page.evaluate(() => document.activeElement?.textContent), 'English')
  await page.locator('h1').click()
  t.false(await page.locator('#locale-dropdown-menu').isVisible(), 'a click outside closes it')
})

test('mobile: the menu shows the guide sidebar first, then the main menu, and closes on Escape and on a desktop-wide window', async (t) => {
  const { page } = await newPage(t, { viewport: { width: 997, height: 900 } })
  await page.goto(site.url('/docs/guide/second/'))
  await hydrated(page)
  const menuButton = page.locator('.navbar__toggle')
  t.false(await menuButton.isVisible(), 'desktop above 996 px')
  await page.setViewportSize({ width: 996, height: 900 })
  t.true(await menuButton.isVisible(), 'mobile at 996 px')
  await page.setViewportSize({ width: 600, height: 900 })
  t.false(await page.locator('.navbar__items').first().isVisible())
  t.false(await page.locator('.doc-layout__sidebar').isVisible())
  const toggle = page.getByRole('button', { name: 'Open the navigation menu' })
  await toggle.click()
  const dialog = page.getByRole('dialog', { name: 'Navigation menu' })
  t.true(await dialog.isVisible())
  t.is(await toggle.getAttribute('aria-expanded'), 'true')
  await page.waitForSelector('[data-panel="secondary"] .menu__link--active')
  t.is(await dialog.locator('.menu__link--active').textContent(), 'Second page')
  await dialog.getByRole('button', { name: '← Back to main menu' }).click()
  t.is(await dialog.locator('[data-panel="primary"] .menu__link').first().textContent(), 'Guide')
  // Tab stays inside the dialog: from its last control back to its first.
  const controls = dialog.locator('a[href], button:not([disabled])')
  await controls.last().focus()
  await page.keyboard.press('Tab')
  t.true(await controls.first().evaluate((el) => el === document.activeElement))
  await page.keyboard.press('Shift+Tab')
  t.true(await controls.last().evaluate((el) => el === document.activeElement))
  await page.keyboard.press('Escape')
  t.is(await dialog.count(), 0)
  t.is(
    await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
    'Open the navigation menu',
  )
  await toggle.click()
  await page.setViewportSize({ width: 1200, height: 900 })
  await page.waitForFunction(() => !document.getElementById('navbar-sidebar'))
  t.true(await page.locator('.doc-layout__sidebar').isVisible())
  await page.setViewportSize({ width: 600, height: 900 })
  await toggle.click()
  await page.locator('#navbar-sidebar').getByRole('link', { name: 'Third page' }).click()
  await page.waitForURL(/\/docs\/guide\/third\/$/)
  await page.waitForFunction(() => !document.getElementById('navbar-sidebar'))
  t.is(await page.locator('h1').textContent(), 'Third page')
})

const categoryDuration = async (page: Page, label: string) => {
  const category = page.locator('.doc-layout__sidebar .menu__item--category', {
    has: page.locator(`summary:has-text("${label}")`),
  })
  await category.locator('summary').click()
  const body = category.locator('.menu__collapsible')
  await page.waitForFunction(
    (el) => el?.closest('details')?.open && !(el as HTMLElement).style.height,
    await body.elementHandle(),
  )
  return Number(await body.getAttribute('data-collapse-ms'))
}

test('sidebar categories open and close with an animation timed by their height', async (t) => {
  const { page } = await newPage(t)
  await page.goto(site.url('/docs/guide/'))
  await hydrated(page)
  const big = await categoryDuration(page, 'Big')
  const small = await categoryDuration(page, 'Small')
  t.true(big > small && small > 100, `big ${big} ms, small ${small} ms`)
  const category = page.locator('.doc-layout__sidebar details', { hasText: 'Big page 1' })
  t.true(await category.locator('a', { hasText: 'Big page 20' }).isVisible())
  await category.locator('summary').click()
  await page.waitForFunction(
    () =>
      ![...document.querySelectorAll('.doc-layout__sidebar details')].some(
        (d) => d.textContent?.includes('Big page 1') && (d as HTMLDetailsElement).open,
      ),
  )
  t.false(await category.locator('a', { hasText: 'Big page 20' }).isVisible())
})

test('with reduced motion the collapse animation takes 1 ms', async (t) => {
  const { page } = await newPage(t, { reducedMotion: 'reduce' })
  await page.goto(site.url('/docs/guide/'))
  await hydrated(page)
  t.is(await categoryDuration(page, 'Big'), 1)
})

test('the table of contents marks the heading in view', async (t) => {
  const { page } = await newPage(t)
  await page.goto(site.url('/docs/guide/'))
  await hydrated(page)
  const active = () => page.locator('.toc__link--active').textContent()
  await page.locator('#section-5').evaluate((h) => h.scrollIntoView({ block: 'start' }))
  await page.waitForFunction(
    () => document.querySelector('.toc__link--active')?.textContent === 'Section 5',
  )
  t.is(await active(), 'Section 5')
  await page.locator('#detail-7').evaluate((h) => h.scrollIntoView({ block: 'start' }))
  await page.waitForFunction(
    () => document.querySelector('.toc__link--active')?.textContent === 'Detail 7',
  )
  t.is(await page.locator('.toc__link--active').getAttribute('aria-current'), 'location')
})

test('keyboard: the skip link comes first and moves focus to the content; focus is visible', async (t) => {
  const { page } = await newPage(t)
  await page.goto(site.url('/docs/guide/'))
  await hydrated(page)
  await page.keyboard.press('Tab')
  const skip = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement
    return { text: el.textContent, top: el.getBoundingClientRect().top }
  })
  t.is(skip.text, 'Skip to main content')
  t.true(skip.top >= 0, 'visible when focused')
  await page.keyboard.press('Enter')
  await page.waitForFunction(() => document.activeElement?.id === 'main-content')
  await page.keyboard.press('Tab')
  const outline = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement
    return { tag: el.tagName, style: getComputedStyle(el).outlineStyle }
  })
  t.is(outline.tag, 'A', 'the next stop is a link in the content')
  t.not(outline.style, 'none')
})

test('without JavaScript the page is fully readable: content, sidebar, categories and footer', async (t) => {
  const { page } = await newPage(t, { javaScriptEnabled: false })
  await page.goto(site.url('/docs/guide/second/'))
  t.is(await page.locator('h1').textContent(), 'Second page')
  t.true(await page.locator('.markdown').getByText('Part two').isVisible())
  t.true(
    await page
      .locator('.doc-layout__sidebar')
      .getByRole('link', { name: 'Third page' })
      .isVisible(),
  )
  // Categories are native disclosure widgets: they open without scripts.
  await page.locator('.doc-layout__sidebar summary', { hasText: 'Big' }).click()
  t.true(await page.getByRole('link', { name: 'Big page 20' }).isVisible())
  t.true(await page.locator('.footer').isVisible())
  t.is(await page.locator('.announcement').textContent(), 'Keyward 1.0 is out.×')
})

test('hydration causes no layout shift, even with a dismissed announcement and a stored colour mode', async (t) => {
  const { page } = await newPage(t)
  await page.addInitScript(() => {
    const w = window as unknown as { __shift: number }
    w.__shift = 0
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        w.__shift += (entry as unknown as { value: number }).value
    }).observe({ type: 'layout-shift', buffered: true })
  })
  // Stored choices that change what the islands render: each must apply before first paint.
  await page.addInitScript(() => {
    localStorage.setItem('theme', 'light')
    localStorage.setItem('docs-announcement-dismissed-release-1', 'true')
  })
  await page.goto(site.url('/docs/guide/'))
  await hydrated(page)
  await page.waitForTimeout(300)
  t.is(await page.evaluate(() => (window as unknown as { __shift: number }).__shift), 0)
})
