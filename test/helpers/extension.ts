// Drives the official passbolt browser extension in Debian's Chromium (playwright-core,
// headless=new) against a real Keyward: one browser profile per user, the extension's iframes
// as frame locators, every answer the server logged, and artifacts when a step fails.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ExecutionContext } from 'ava'
import {
  type BrowserContext,
  chromium,
  type FrameLocator,
  type Page,
  type Worker,
} from 'playwright-core'
import type { TestApi } from './api.ts'
import { ensureExtension, isExtensionBuilt } from './extension-build.ts'
import { decodeQuotedPrintable } from './smtp.ts'

/** Gets a free loopback port, so the server's own URL (in its links) is known before it starts. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/** Returns the built extension, building it (minutes) when .ci/run has not done so. */
export const extensionForTest = async (t: ExecutionContext) => {
  if (!isExtensionBuilt())
    t.log('the official extension is not cached: building it now (about 3 minutes)')
  return ensureExtension({ log: (line) => t.log(`[extension] ${line}`) })
}

export interface ExtensionBrowser {
  context: BrowserContext
  page: Page
  extensionId: string
  /** The extension's service worker (asked again each time: MV3 workers stop when idle). */
  worker(): Promise<Worker>
  /** The extension's UI iframe of that name: `login`, `setup`, `app`, `recover`. */
  iframe(name: string): FrameLocator
  /** Messages the pages and the worker printed, for artifacts. */
  console: string[]
}

/**
 * Launches Chromium with the unpacked extension on a fresh profile; closed at teardown. The
 * browser accepts the test TLS front's self-signed certificate (test/helpers/tls-proxy.ts).
 */
export const launchExtension = async (
  t: ExecutionContext,
  extensionDir: string,
  label: string,
): Promise<ExtensionBrowser> => {
  const profile = mkdtempSync(join(tmpdir(), `keyward-e2e-${label}-`))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: false,
    viewport: { width: 1440, height: 900 },
    ignoreDefaultArgs: [
      '--disable-extensions',
      '--disable-component-extensions-with-background-pages',
    ],
    args: [
      '--headless=new',
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--ignore-certificate-errors',
    ],
  })
  t.teardown(async () => {
    await context.close().catch(() => {})
    rmSync(profile, { recursive: true, force: true })
  })
  const console: string[] = []
  const worker = async () =>
    context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
    context.waitForEvent('serviceworker', { timeout: 30_000 })
  const first = await worker()
  first.on('console', (message) => console.push(`[worker] ${message.type()}: ${message.text()}`))
  const extensionId = new URL(first.url()).host
  // On install the extension opens a tab on its vendor's site (unreachable here): keep one tab.
  const page = await context.newPage()
  page.on('console', (message) => console.push(`[page] ${message.type()}: ${message.text()}`))
  page.on('pageerror', (error) => console.push(`[page] error: ${error.message}`))
  for (const other of context.pages()) if (other !== page) await other.close().catch(() => {})
  context.on('page', (opened) => {
    if (opened !== page) void opened.close().catch(() => {})
  })
  return {
    context,
    page,
    extensionId,
    worker,
    iframe: (name) => page.frameLocator(`#passbolt-iframe-${name}`),
    console,
  }
}

/** An answer the server logged: method, route pattern (never a token) and status. */
export interface LoggedAnswer {
  method: string
  path: string
  status: number
  ms: number
}

/** The server's answers, read from its request log lines. */
export const answersOf = (logs: Record<string, unknown>[]): LoggedAnswer[] =>
  logs
    .filter((line) => line.msg === 'request')
    .map((line) => ({
      method: String(line.method),
      path: String(line.path),
      status: Number(line.status),
      ms: Number(line.ms),
    }))

/**
 * The newest setup or recovery link mailed to `username`. The mail is queued, then written to
 * the outbox by whichever process claims it (the server, or the CLI that queued it), so the
 * file may appear a moment after the request or command that sent it has returned.
 */
export const linkFromOutbox = async (
  dataDir: string,
  username: string,
  kind: 'install' | 'recover',
  timeoutMs = 30_000,
): Promise<string> => {
  const outbox = join(dataDir, 'outbox')
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const files = existsSync(outbox) ? readdirSync(outbox).sort().reverse() : []
    for (const file of files) {
      const text = decodeQuotedPrintable(readFileSync(join(outbox, file), 'utf8'))
      if (!text.includes(`To: ${username}`)) continue
      const link = text.match(new RegExp(`https?://\\S+/setup/${kind}/[0-9a-f-]{36}/[0-9a-f-]{36}`))
      if (link) return link[0]
    }
    if (Date.now() > deadline) throw new Error(`no ${kind} link mailed to ${username} in ${outbox}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Where failing steps leave their screenshots and requests (never inside the checkout). */
export const artifactsDir = () => {
  const dir =
    process.env.KEYWARD_E2E_ARTIFACTS ??
    join(tmpdir(), 'keyward-e2e-artifacts', new Date().toISOString().replace(/[:.]/g, '-'))
  mkdirSync(dir, { recursive: true })
  return dir
}

/** The test database's other sessions: their state, what they wait on and their statement. */
const databaseActivity = async (api: TestApi) => {
  try {
    const rows = (await api.app.orm.em
      .fork()
      .getConnection()
      .execute(
        `select state, wait_event_type, wait_event, now() - query_start as running, left(query, 200) as query
           from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`,
      )) as Record<string, unknown>[]
    return rows.length ? JSON.stringify(rows) : 'no statement running'
  } catch (error) {
    return `not read: ${(error as Error).message}`
  }
}

export interface Steps {
  /**
   * Runs one step of the scenario: it fails when the step throws or when the server answered a
   * 4xx or 5xx the step did not list in `expected` (e.g. `['GET /auth/is-authenticated.json 401']`).
   * On failure a screenshot, the page's text, the failing answers and the console are saved.
   */
  run(name: string, fn: () => Promise<void>, expected?: string[]): Promise<void>
  /** Milliseconds each step took, in order. */
  timings: { name: string; ms: number }[]
}

export const stepsFor = (
  t: ExecutionContext,
  api: TestApi,
  browsers: () => ExtensionBrowser[],
): Steps => {
  const { logs } = api
  const timings: { name: string; ms: number }[] = []
  return {
    timings,
    run: async (name, fn, expected = []) => {
      const from = logs.length
      const started = Date.now()
      let failure: unknown
      try {
        await fn()
      } catch (error) {
        failure = error
      }
      const unexpected = answersOf(logs.slice(from)).filter(
        (a) =>
          a.status >= 400 &&
          !expected.some((e) => e === `${a.method} ${a.path} ${a.status}` || e === `* ${a.status}`),
      )
      if (!failure && unexpected.length)
        failure = new Error(
          `unexpected answers: ${unexpected.map((a) => `${a.method} ${a.path} ${a.status}`).join(', ')}`,
        )
      timings.push({ name, ms: Date.now() - started })
      if (!failure) return
      const dir = join(artifactsDir(), name.replace(/[^a-z0-9]+/gi, '-').toLowerCase())
      mkdirSync(dir, { recursive: true })
      for (const [index, browser] of browsers().entries()) {
        await browser.page
          .screenshot({ path: join(dir, `browser-${index}.png`), fullPage: true })
          .catch(() => {})
        writeFileSync(join(dir, `browser-${index}-console.txt`), browser.console.join('\n'))
        writeFileSync(join(dir, `browser-${index}-url.txt`), browser.page.url())
      }
      writeFileSync(
        join(dir, 'answers.json'),
        JSON.stringify({ unexpected, all: answersOf(logs.slice(from)) }, null, 2),
      )
      t.log(`step "${name}" failed; artifacts in ${dir}`)
      // A CI log is all that is left of a failed run: what the server last answered, and what
      // its database was doing when the step gave up (a statement waiting on a lock, or nothing).
      t.log(
        'last answers:',
        answersOf(logs.slice(from))
          .slice(-15)
          .map((a) => `${a.method} ${a.path} ${a.status} ${a.ms} ms`)
          .join('; ') || 'none',
      )
      t.log('database activity:', await databaseActivity(api))
      throw failure
    },
  }
}
