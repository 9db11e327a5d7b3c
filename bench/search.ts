// Benchmark: search index sizes (gzipped) for the real content and the 2,000-page synthetic
// corpus, query latency over the corpus's biggest index, and, in chromium, the time from the
// first keystroke to the first suggestions (worker start and index load included) on loopback.
// Usage: node bin/run.js bench/search.ts [--pages 2000]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import MiniSearch from 'minisearch'
import { build } from '../cli/build.ts'
import { startServer } from '../cli/serve.ts'
import { INDEX_OPTIONS, runSearch, type SearchDocument } from '../templates/search/options.ts'
import { closeBrowser, launchBrowser } from '../test/helpers/browser.ts'
import { generateCorpus } from './generate-corpus.ts'

const { values } = parseArgs({ options: { pages: { type: 'string', default: '2000' } } })
const repo = fileURLToPath(new URL('..', import.meta.url))
const console_ = console.log
console.log = () => {} // quiet the builds and servers; figures go through report()
const report = (line: string) => console_(line)

const sizes = (out: string) => {
  const manifest = JSON.parse(readFileSync(join(out, 'docs/search-manifest.json'), 'utf8'))
  const urls = manifest.versions.current as Record<string, string>
  return Object.fromEntries(
    Object.entries(urls).map(([context, url]) => [
      context,
      gzipSync(readFileSync(join(out, url))).length / 1024,
    ]),
  )
}
const kb = (table: Record<string, number>) =>
  Object.entries(table)
    .sort((a, b) => b[1] - a[1])
    .map(([context, size]) => `${context} ${size.toFixed(1)} KB`)
    .join(', ')

const realOut = mkdtempSync(join(tmpdir(), 'keyward-search-real-'))
await build({ root: repo, outDir: realOut, workers: 1 })
report(
  `real content, gzipped index per context: ${kb(sizes(realOut))} (target <= 300 KB per context)`,
)
rmSync(realOut, { recursive: true, force: true })

const corpus = join(repo, 'bench/corpus')
generateCorpus({ pages: Number(values.pages), out: corpus })
const out = mkdtempSync(join(tmpdir(), 'keyward-search-corpus-'))
await build({ root: corpus, outDir: out })
const corpusSizes = sizes(out)
const total = Object.entries(corpusSizes).reduce(
  (sum, [context, size]) => (context === 'all' ? sum : sum + size),
  0,
)
report(
  `${values.pages}-page corpus, gzipped index per context: ${kb(corpusSizes)}; guides together ${total.toFixed(0)} KB`,
)

const manifest = JSON.parse(readFileSync(join(out, 'docs/search-manifest.json'), 'utf8'))
const queries = [
  'server',
  'passphrase policy',
  'backup database',
  'certifcate',
  'ldap',
  'fingerprint key',
  'con',
  'metadata encryption',
  'yubikey',
  'migrate',
]
let started = 0
for (const context of ['admin', 'all']) {
  const json = readFileSync(join(out, manifest.versions.current[context]), 'utf8')
  started = performance.now()
  const index = MiniSearch.loadJSON<SearchDocument>(json, INDEX_OPTIONS)
  const loadMs = performance.now() - started
  const times: number[] = []
  for (let round = 0; round < 20; round++)
    for (const q of queries) {
      started = performance.now()
      runSearch(index, q).slice(0, 8)
      times.push(performance.now() - started)
    }
  times.sort((a, b) => a - b)
  const at = (p: number) => times[Math.floor(p * (times.length - 1))].toFixed(2)
  report(
    `query latency, "${context}" index (${times.length} queries, the worker's code): p50 ${at(0.5)} ms, p95 ${at(0.95)} ms (target p95 < 5 ms); index parse ${loadMs.toFixed(0)} ms`,
  )
}

/** Fresh browser contexts: type a word on a guide page, time until the first suggestion shows. */
const firstSuggestions = async (root: string, dir: string, path: string, word: string) => {
  const server = await startServer({ root, port: 0, host: '127.0.0.1', dir })
  const browser = await launchBrowser()
  const times: number[] = []
  for (let i = 0; i < 5; i++) {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(new URL(path, server.url).href)
    // A reader looks at the page before searching; the page warms the search code when idle.
    await page.waitForTimeout(2000)
    await page.locator('#docs-search').focus()
    const begun = performance.now()
    await page.keyboard.type(word)
    await page.waitForSelector('#docs-search-listbox [role="option"]')
    times.push(performance.now() - begun)
    await context.close()
  }
  await server.close()
  return times.sort((x, y) => x - y)
}
const corpusFirst = await firstSuggestions(corpus, out, 'admin/topic-1/page-3/', 'server')
report(
  `first keystroke to first suggestions, corpus (admin index, ${corpusSizes.admin.toFixed(0)} KB gz): median ${corpusFirst[2].toFixed(0)} ms, max ${corpusFirst[4].toFixed(0)} ms (target < 150 ms)`,
)
const realOut2 = mkdtempSync(join(tmpdir(), 'keyward-search-real-'))
await build({ root: repo, outDir: realOut2, workers: 1 })
const realFirst = await firstSuggestions(repo, realOut2, 'hosting/', 'postgres')
report(
  `first keystroke to first suggestions, real content (hosting index): median ${realFirst[2].toFixed(0)} ms, max ${realFirst[4].toFixed(0)} ms (target < 150 ms)`,
)
rmSync(realOut2, { recursive: true, force: true })
await closeBrowser()
rmSync(out, { recursive: true, force: true })
