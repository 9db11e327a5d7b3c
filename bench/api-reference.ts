// Benchmark: the API reference page against a Redoc page of the same OpenAPI document, in the
// same run, both on the production preview (`docs serve --dir`) over loopback. Debian chromium
// via playwright-core loads each page in a fresh context (empty cache). Reported: every
// same-origin response body gzipped at level 9 (what a compressing server transfers), first
// contentful paint, and when the first path is on screen.
// Redoc is not a dependency of the project: pass its standalone bundle (`npm pack redoc`, file
// `package/bundles/redoc.standalone.js`) with --redoc, or install it where node resolves it.
// Usage: node bin/run.js bench/api-reference.ts --redoc PATH [--dir build] [--runs 5]
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { type Browser, chromium } from 'playwright-core'
import { serveSite } from './page-weight.ts'

const REFERENCE = '/docs/api/'
const REDOC = '/docs/redoc-bench/'
/** A short guide page of the same site: what first paint costs without the reference's size. */
const GUIDE = '/docs/api/introduction/'

interface Sample {
  bytes: number
  requests: number
  fcp: number
  contentAt: number
}

const redocPage = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Keyward API (Redoc)</title></head>
<body><redoc spec-url="openapi.json" disable-telemetry="true"></redoc><script type="module" src="redoc.standalone.js"></script></body></html>
`

const measure = async (browser: Browser, url: string, summary: string): Promise<Sample> => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  try {
    const page = await context.newPage()
    const { origin } = new URL(url)
    const bodies: Promise<number>[] = []
    // Other origins (web fonts Redoc asks for) cannot load here and are not counted.
    await page.route(
      (address) => address.origin !== origin,
      (route) => route.abort(),
    )
    page.on('requestfinished', (request) =>
      bodies.push(
        request
          .response()
          .then((response) => response?.body())
          .then((body) => (body ? gzipSync(body, { level: 9 }).length : 0))
          .catch(() => 0),
      ),
    )
    await page.goto(url, { waitUntil: 'commit' })
    await page.waitForFunction((text) => document.body?.textContent?.includes(text), summary, {
      polling: 'raf',
      timeout: 60_000,
    })
    const contentAt = await page.evaluate(() => performance.now())
    await page.waitForLoadState('networkidle')
    const fcp = await page.evaluate(
      () =>
        performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint')
          ?.startTime ?? Number.NaN,
    )
    const sizes = await Promise.all(bodies)
    return { bytes: sizes.reduce((a, b) => a + b, 0), requests: sizes.length, fcp, contentAt }
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

const findRedoc = (given?: string) => {
  if (given) return resolve(given)
  try {
    return createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js')
  } catch {
    throw new Error('Redoc not found: pass --redoc PATH/redoc.standalone.js (see the header)')
  }
}

const main = async () => {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' },
      runs: { type: 'string', default: '5' },
      redoc: { type: 'string' },
    },
  })
  const redoc = findRedoc(values.redoc)
  const runs = Number(values.runs)
  const site = await serveSite(values.dir, (outDir) => {
    // The Redoc page beside ours, reading the same document.
    const docs = join(outDir, 'docs')
    const folder = join(docs, 'redoc-bench')
    mkdirSync(folder, { recursive: true })
    copyFileSync(join(docs, 'api', 'openapi.json'), join(folder, 'openapi.json'))
    copyFileSync(redoc, join(folder, 'redoc.standalone.js'))
    writeFileSync(join(folder, 'index.html'), redocPage)
  })
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
  try {
    const document = await (await fetch(new URL(`${REFERENCE}openapi.json`, site.origin))).json()
    // Both references show the first path early (Redoc folds the operations under their tags).
    const firstPath = Object.keys(document.paths)[0]
    const markers: Record<string, string> = {
      [REFERENCE]: firstPath,
      [REDOC]: firstPath,
      [GUIDE]: 'Introduction',
    }
    const results: Record<string, Sample[]> = { [REFERENCE]: [], [REDOC]: [], [GUIDE]: [] }
    for (const path of Object.keys(results))
      await measure(browser, new URL(path, site.origin).href, markers[path])
    // Alternating, so every page sees the same machine load.
    for (let i = 0; i < runs; i++)
      for (const path of Object.keys(results))
        results[path].push(await measure(browser, new URL(path, site.origin).href, markers[path]))
    const row = (name: string, samples: Sample[]) =>
      `| ${name} | ${kb(median(samples.map((s) => s.bytes)))} | ${median(samples.map((s) => s.requests))} | ${median(samples.map((s) => s.fcp)).toFixed(0)} ms | ${median(samples.map((s) => s.contentAt)).toFixed(0)} ms |`
    const ours = median(results[REFERENCE].map((s) => s.bytes))
    const theirs = median(results[REDOC].map((s) => s.bytes))
    console.log(
      `median of ${runs} runs, fresh browser context each, loopback; bytes: every same-origin body gzip -9; operations: ${Object.values(document.paths as object).reduce((n: number, item: object) => n + Object.keys(item).length, 0)}`,
    )
    console.log(
      '| page | transferred (gz) | requests | first contentful paint | first path (title) on screen |',
    )
    console.log('|---|---|---|---|---|')
    console.log(row(`Keyward reference ${REFERENCE}`, results[REFERENCE]))
    console.log(
      row(
        `Redoc ${JSON.parse(readFileSync(join(redoc, '../../package.json'), 'utf8')).version} standalone`,
        results[REDOC],
      ),
    )
    console.log(row(`a short guide page ${GUIDE}`, results[GUIDE]))
    console.log(
      `ratio: ${((ours / theirs) * 100).toFixed(1)} % of Redoc's bytes (target <= 25 %): ${ours <= theirs / 4 ? 'PASS' : 'FAIL'}; first paint target < 300 ms: ${median(results[REFERENCE].map((s) => s.fcp)) < 300 ? 'PASS' : 'FAIL'}`,
    )
  } finally {
    await browser.close()
    await site.close()
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main()
