// Debian's chromium driven by playwright-core, one browser per test file.
import type { ExecutionContext } from 'ava'
import { type Browser, chromium } from 'playwright-core'

let browser: Promise<Browser> | undefined

export const launchBrowser = (): Promise<Browser> => {
  browser ??= chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
  return browser
}

/** A fresh page; its console errors fail nothing but are kept for the test to read. */
export const newPage = async (t: ExecutionContext) => {
  const context = await (await launchBrowser()).newContext({
    viewport: { width: 1280, height: 900 },
  })
  t.teardown(() => context.close())
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  return { page, errors }
}

export const closeBrowser = async () => {
  if (browser) await (await browser).close()
}
