// Benchmark: what a reader's browser downloads before touching a page, and how soon the page is
// interactive, on the production preview (`docs serve --dir`) over loopback. Debian chromium via
// playwright-core loads each page in a fresh context (empty cache); sizes are the response bodies
// gzipped here at level 9, since the preview server does not compress.
// Usage: node bin/run.js bench/page-weight.ts [--dir build] [--runs 5] [--page /docs/ ...]
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { type Browser, chromium, type Page, type Request } from 'playwright-core'

const repo = fileURLToPath(new URL('..', import.meta.url))
const docsBin = join(repo, 'bin/docs.js')

/** The JavaScript budget before any interaction, gzipped. */
const JS_BUDGET_KB = 90
/** Idle time after the network goes quiet during which late requests (idle warm-ups) still count. */
const IDLE_MS = 2000
/** Fallback interactivity: the first window this long without a long task after DOMContentLoaded. */
const QUIET_MS = 2000

export const DEFAULT_PAGES = ['/docs/', '/docs/hosting/install/']

export interface ServedSite {
  /** Origin of the preview server, e.g. `http://127.0.0.1:41234`. */
  origin: string
  close(): Promise<void>
}

/** Runs a `docs` CLI command in a child process; rejects with its output when it fails. */
const runDocs = (args: string[]) =>
  new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, [docsBin, ...args], { cwd: repo })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', fail)
    child.on('exit', (code) =>
      code === 0 ? done() : fail(new Error(`docs ${args.join(' ')} failed:\n${output}`)),
    )
  })

const stopChild = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done()
    child.once('exit', () => done())
    child.kill('SIGTERM')
  })

/**
 * Builds the site into a temporary folder (unless `dir` names an existing build) and serves it
 * with `docs serve --dir` on a free loopback port, in a child process like a real preview.
 */
export const serveSite = async (
  dir?: string,
  /** Adds files to the built tree before it is served. */
  extend?: (outDir: string) => void,
): Promise<ServedSite> => {
  const outDir = dir ? resolve(dir) : mkdtempSync(join(tmpdir(), 'keyward-page-weight-'))
  const removeBuild = () => {
    if (!dir) rmSync(outDir, { recursive: true, force: true })
  }
  if (!dir)
    await runDocs(['build', '--out', outDir]).catch((error) => {
      removeBuild()
      throw error
    })
  extend?.(outDir)
  const child = spawn(
    process.execPath,
    [docsBin, 'serve', '--dir', outDir, '--port', '0', '--host', '127.0.0.1'],
    { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const url = await new Promise<string>((done, fail) => {
    let output = ''
    child.stdout!.on('data', (chunk) => {
      output += chunk
      const match = /Serving (http:\/\/\S+)/.exec(output)
      if (match) done(match[1])
    })
    child.on('exit', (code) => fail(new Error(`docs serve exited (${code}):\n${output}`)))
  }).catch((error) => {
    removeBuild()
    throw error
  })
  return {
    origin: new URL(url).origin,
    close: async () => {
      await stopChild(child)
      removeBuild()
    },
  }
}

interface Asset {
  url: string
  kind: 'js' | 'css' | 'data'
  /** Chromium's resource type: `other` for prefetches and worker scripts. */
  type: string
  gzip: number
}

interface Sample {
  htmlGzip: number
  assets: Asset[]
  jsRequests: number
  /** ms from navigation start; `undefined` when the measure was not available. */
  hydratedAt?: number
  quietAt: number
}

/**
 * The two interactivity measures so far, in ms from navigation start: the hydrated flag, and the
 * fallback, DOMContentLoaded pushed past every long task that starts within QUIET_MS of it (the
 * idea of Lighthouse's TTI with a shorter quiet window).
 */
const readTimings = async (page: Page) => {
  const timings = await page.evaluate(() => {
    const { __bench: bench } = window as unknown as {
      __bench: { hydratedAt?: number; longTasks: number[][] }
    }
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming
    return {
      hydratedAt: bench.hydratedAt,
      longTasks: bench.longTasks,
      domContentLoaded: nav.domContentLoadedEventEnd,
      now: performance.now(),
    }
  })
  let quietAt = timings.domContentLoaded
  for (const [start, end] of timings.longTasks.sort((x, y) => x[0] - y[0])) {
    if (start - quietAt >= QUIET_MS) break
    quietAt = Math.max(quietAt, end)
  }
  return { hydratedAt: timings.hydratedAt, quietAt, now: timings.now }
}

const gzipSize = (body: Buffer) => gzipSync(body, { level: 9 }).length

const kindOf = (request: Request): Asset['kind'] | undefined => {
  const path = new URL(request.url()).pathname
  const type = request.resourceType()
  if (type === 'script' || /\.m?js$/.test(path)) return 'js'
  if (type === 'stylesheet' || path.endsWith('.css')) return 'css'
  if (type === 'fetch' || type === 'xhr' || path.endsWith('.json')) return 'data'
  return undefined
}

// Runs in the page before its own scripts: records when the client marks the islands hydrated,
// and every long task, so both measures can be read once the page has settled. A string, since
// the TypeScript loader may wrap a function's inner functions in helpers the page does not have.
const RECORD_TIMINGS = `
window.__bench = { hydratedAt: undefined, longTasks: [] }
new MutationObserver(() => {
  if (window.__bench.hydratedAt === undefined && document.documentElement.dataset.hydrated === 'true')
    window.__bench.hydratedAt = performance.now()
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-hydrated'] })
try {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      window.__bench.longTasks.push([entry.startTime, entry.startTime + entry.duration])
  }).observe({ type: 'longtask', buffered: true })
} catch {} // no long-task timing: the fallback is DOMContentLoaded alone
`

/** Loads `url` in a fresh context and waits for the network to be idle for `IDLE_MS`. */
const measurePage = async (browser: Browser, url: string): Promise<Sample> => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  try {
    const page = await context.newPage()
    await page.addInitScript({ content: RECORD_TIMINGS })
    const pending = new Set<Request>()
    const bodies: Promise<Asset | undefined>[] = []
    let lastActivity = performance.now()
    let jsRequests = 0
    page.on('request', (request) => {
      pending.add(request)
      lastActivity = performance.now()
      if (kindOf(request) === 'js') jsRequests++
    })
    const settle = (request: Request) => {
      pending.delete(request)
      lastActivity = performance.now()
    }
    page.on('requestfailed', settle)
    page.on('requestfinished', (request) => {
      settle(request)
      const kind = kindOf(request)
      if (!kind) return
      bodies.push(
        request
          .response()
          .then((response) => response?.body())
          .then(
            (body) =>
              body && {
                url: request.url(),
                kind,
                type: request.resourceType(),
                gzip: gzipSize(body),
              },
          )
          .catch(() => undefined), // a body the browser dropped (e.g. a redirect) weighs nothing
      )
    })
    const response = await page.goto(url, { waitUntil: 'networkidle' })
    if (!response?.ok()) throw new Error(`${url} answered ${response?.status()}`)
    const htmlGzip = gzipSize(await response.body())
    // Idle warm-ups (requestIdleCallback, prefetches) count as long as nobody has interacted.
    // Wait for the network to rest IDLE_MS and, for the fallback measure, for a quiet window.
    const deadline = performance.now() + 30_000
    for (;;) {
      if (performance.now() > deadline)
        throw new Error(`${url}: the network or the main thread never went idle in 30 s`)
      if (pending.size === 0 && performance.now() - lastActivity >= IDLE_MS) {
        const timings = await readTimings(page)
        if (timings.now - timings.quietAt >= QUIET_MS) {
          const assets = (await Promise.all(bodies)).filter((asset) => asset !== undefined)
          return { htmlGzip, assets, jsRequests, ...timings }
        }
      }
      await page.waitForTimeout(100)
    }
  } finally {
    await context.close()
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const sum = (assets: Asset[], kind: Asset['kind']) =>
  assets.filter((asset) => asset.kind === kind).reduce((total, asset) => total + asset.gzip, 0)

const main = async () => {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' },
      runs: { type: 'string', default: '5' },
      page: { type: 'string', multiple: true },
    },
  })
  const runs = Number(values.runs)
  const paths = values.page?.length ? values.page : DEFAULT_PAGES
  const site = await serveSite(values.dir)
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
  const rows: string[] = []
  const details: string[] = []
  const budget: string[] = []
  let overBudget = false
  try {
    for (const path of paths) {
      const url = new URL(path, site.origin).href
      await measurePage(browser, url) // warm the server's file cache and chromium's code cache
      const samples: Sample[] = []
      for (let i = 0; i < runs; i++) samples.push(await measurePage(browser, url))
      const hydrated = samples.filter((s) => s.hydratedAt !== undefined)
      // One measure per page: mixing them would make the median meaningless.
      const measure =
        hydrated.length === samples.length
          ? 'hydrated flag'
          : `DOMContentLoaded + ${QUIET_MS / 1000} s without long tasks${hydrated.length ? ` (flag seen in ${hydrated.length}/${runs} runs only)` : ''}`
      const tti = median(
        samples.map((s) => (hydrated.length === samples.length ? s.hydratedAt! : s.quietAt)),
      )
      const js = median(samples.map((s) => sum(s.assets, 'js')))
      rows.push(
        `| ${path} | ${kb(median(samples.map((s) => s.htmlGzip)))} | ${kb(js)} | ${median(samples.map((s) => s.jsRequests))} | ${kb(median(samples.map((s) => sum(s.assets, 'css'))))} | ${kb(median(samples.map((s) => sum(s.assets, 'data'))))} | ${tti.toFixed(0)} ms | ${measure} |`,
      )
      const first = samples[0].assets
        .filter((asset) => asset.kind !== 'css')
        .map((asset) => {
          const name = new URL(asset.url).pathname
            .replace(/^\/docs\//, '')
            .replace(/^assets\/[^/]+\//, '')
          const type = asset.type === 'script' || asset.type === 'fetch' ? '' : ` (${asset.type})`
          return `${name} ${kb(asset.gzip)}${type}`
        })
      details.push(`  ${path}: ${first.join(', ') || 'no scripts or data'}`)
      const ok = js <= JS_BUDGET_KB * 1024
      overBudget ||= !ok
      budget.push(`${path} ${kb(js)} ${ok ? 'ok' : 'OVER'}`)
    }
  } finally {
    await browser.close()
    await site.close()
  }
  console.log(
    `median of ${runs} runs per page, fresh browser context each, loopback; sizes gzip -9 of the bodies`,
  )
  console.log(
    '| page | HTML gz | JS gz before interaction | JS requests | CSS gz | data (JSON) gz | time to interactive | measure |',
  )
  console.log('|---|---|---|---|---|---|---|---|')
  for (const row of rows) console.log(row)
  console.log('scripts and data fetched before interaction (first run, gzipped):')
  for (const line of details) console.log(line)
  console.log(
    `budget: JS before interaction <= ${JS_BUDGET_KB} KB gzipped: ${overBudget ? 'FAIL' : 'PASS'} (${budget.join('; ')})`,
  )
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main()
