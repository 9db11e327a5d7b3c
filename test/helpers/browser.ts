// Debian's chromium driven by playwright-core, one browser per test file.
import type { ExecutionContext } from 'ava'
import { type Browser, type BrowserContextOptions, chromium } from 'playwright-core'

let browser: Promise<Browser> | undefined

export const launchBrowser = (): Promise<Browser> => {
  browser ??= chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
  return browser
}

/**
 * A fresh page in its own context (desktop viewport unless `options` say otherwise); its page
 * errors and console messages fail nothing but are kept for the test to read.
 */
export const newPage = async (t: ExecutionContext, options: BrowserContextOptions = {}) => {
  const context = await (await launchBrowser()).newContext({
    viewport: { width: 1280, height: 900 },
    ...options,
  })
  t.teardown(() => context.close())
  const page = await context.newPage()
  // A file's tests open their pages at once, beside other files' browsers and servers on two
  // cores: a page's load may wait on the machine for longer than Playwright's 30 s default.
  page.setDefaultNavigationTimeout(60_000)
  const errors: string[] = []
  const console: { type: string; text: string }[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => console.push({ type: message.type(), text: message.text() }))
  return { page, errors, console, context }
}

/**
 * Holds back the page's React part (the chunk that marks the page hydrated) until `until`
 * settles, as a slow network or a busy machine would; the bootstrap still runs at once.
 */
export const holdReactPart = (page: import('playwright-core').Page, until: Promise<unknown>) =>
  page.route('**/*.js', async (route) => {
    try {
      const response = await route.fetch()
      const body = await response.text()
      if (body.includes('.hydrated=')) await until
      await route.fulfill({ response, body })
    } catch {
      // The test ended and closed its page while a script was on its way (a prefetch, say).
      // Thrown here, it would end the whole file; a page still open that misses its script
      // fails the test's own wait for hydration instead.
    }
  })

/** Resolves once the page's islands have hydrated. */
export const hydrated = (page: import('playwright-core').Page) =>
  page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')

export const closeBrowser = async () => {
  if (browser) await (await browser).close()
}
