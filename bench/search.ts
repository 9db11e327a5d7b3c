// Benchmark: the sharded search index on the real content and the 2,000-page synthetic corpus:
// file sizes (gzipped), query latency once a query's chunks are in, and, in chromium, what a
// visitor downloads for search until the suggestions of the query typed appear (manifest, worker
// script, index root, term and stored-field chunks, gzipped; typed at once and at a quick
// typist's pace) and how long they take after the last key, on loopback.
// Usage: node bin/run.js bench/search.ts [--pages 2000]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { build } from '../cli/build.ts'
import { startServer } from '../cli/serve/serve.ts'
import { ShardedIndex } from '../templates/search/sharded.ts'
import { closeBrowser, launchBrowser } from '../test/helpers/browser.ts'
import { generateCorpus } from './generate-corpus.ts'

const { values } = parseArgs({ options: { pages: { type: 'string', default: '2000' } } })
const repo = fileURLToPath(new URL('..', import.meta.url))
const console_ = console.log
console.log = () => {} // quiet the builds and servers; figures go through report()
const report = (line: string) => console_(line)
const gz = (data: string | Buffer) => gzipSync(data, { level: 9 }).length / 1024
const kib = (n: number) => `${n.toFixed(1)} KiB`

const sizes = (out: string, label: string) => {
  const dir = join(out, 'docs/assets/search')
  const files = readdirSync(dir).map((name) => ({ name, size: gz(readFileSync(join(dir, name))) }))
  const of = (kind: string) => files.filter((f) => f.name.includes(`-${kind}.`))
  const terms = of('t')
    .map((f) => f.size)
    .sort((a, b) => a - b)
  const stored = of('d')
    .map((f) => f.size)
    .sort((a, b) => a - b)
  const total = files.reduce((n, f) => n + f.size, 0)
  report(
    `${label}: whole index ${kib(total)} gz in ${files.length} files; root ${kib(of('root')[0].size)}; ${terms.length} term chunks (median ${kib(terms[terms.length >> 1])}, max ${kib(terms.at(-1)!)}); ${stored.length} stored-field chunks (max ${kib(stored.at(-1)!)})`,
  )
}

const realOut = mkdtempSync(join(tmpdir(), 'keyward-search-real-'))
await build({ root: repo, outDir: realOut, workers: 1, cacheDir: false })
sizes(realOut, 'real content')

const corpus = join(repo, 'bench/corpus')
generateCorpus({ pages: Number(values.pages), out: corpus })
const out = mkdtempSync(join(tmpdir(), 'keyward-search-corpus-'))
await build({ root: corpus, outDir: out, cacheDir: false })
sizes(out, `${values.pages}-page corpus`)

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
const manifest = JSON.parse(readFileSync(join(out, 'docs/search-manifest.json'), 'utf8'))
const rootUrl: string = manifest.versions.current
const searchDir = join(out, 'docs/assets/search')
for (const context of ['admin', 'all']) {
  const index = new ShardedIndex(
    JSON.parse(readFileSync(join(out, rootUrl), 'utf8')),
    async (file) => JSON.parse(readFileSync(join(searchDir, file), 'utf8')),
  )
  for (const q of queries) await index.search(q, context) // fetch each query's chunks once
  const times: number[] = []
  for (let round = 0; round < 20; round++)
    for (const q of queries) {
      const started = performance.now()
      const hits = (await index.search(q, context)).slice(0, 8)
      await index.stored(hits.map((hit) => hit.id))
      times.push(performance.now() - started)
    }
  times.sort((a, b) => a - b)
  const at = (p: number) => times[Math.floor(p * (times.length - 1))].toFixed(2)
  report(
    `query latency, context "${context}" (${times.length} queries, chunks loaded, the worker's code): p50 ${at(0.5)} ms, p95 ${at(0.95)} ms`,
  )
}

/**
 * Fresh browser contexts: open a guide page, wait while it warms the search code, type a query
 * (all at once, or at `keyDelay` ms a key, a quick typist's pace) and wait for the suggestions
 * of the whole query (the box names the query its suggestions answer). Counts the search
 * downloads made until then, whichever prefix of the query fetched them.
 */
const firstSuggestions = async (
  root: string,
  dir: string,
  path: string,
  words: string[],
  keyDelay = 0,
) => {
  const server = await startServer({ root, port: 0, host: '127.0.0.1', dir })
  const browser = await launchBrowser()
  const rows: { word: string; ms: number; kib: number; files: number }[] = []
  for (const word of words) {
    const context = await browser.newContext()
    const page = await context.newPage()
    const bodies: Promise<number>[] = []
    page.on('response', (response) => {
      const url = new URL(response.url()).pathname
      if (/search-manifest|search-worker|\/assets\/search\//.test(url))
        bodies.push(response.body().then(gz, () => 0))
    })
    await page.goto(new URL(path, server.url).href)
    // A reader looks at the page before searching; the page warms the search code when idle.
    await page.waitForTimeout(2000)
    await page.locator('#docs-search').focus()
    await page.keyboard.type(word, { delay: keyDelay })
    const typed = performance.now()
    await page.waitForSelector(
      `.navbar-search[data-answered=${JSON.stringify(word)}] #docs-search-listbox [role="option"]`,
    )
    const ms = performance.now() - typed
    const sizes = await Promise.all(bodies)
    rows.push({ word, ms, kib: sizes.reduce((n, s) => n + s, 0), files: sizes.length })
    await context.close()
  }
  await server.close()
  return rows
}
for (const keyDelay of [0, 120])
  for (const row of await firstSuggestions(
    corpus,
    out,
    'admin/topic-1/page-3/',
    queries.slice(0, 6),
    keyDelay,
  ))
    report(
      `corpus, "${row.word}" typed ${keyDelay ? `at ${keyDelay} ms a key` : 'at once'} on an admin page: ${kib(row.kib)} gz in ${row.files} files until its suggestions show (target <= 300 KiB), ${row.ms.toFixed(0)} ms after the last key`,
    )
for (const row of await firstSuggestions(repo, realOut, 'hosting/', ['postgres', 'backup']))
  report(
    `real content, "${row.word}" on the hosting guide: ${kib(row.kib)} gz in ${row.files} files, ${row.ms.toFixed(0)} ms after the last key`,
  )
await closeBrowser()
rmSync(out, { recursive: true, force: true })
rmSync(realOut, { recursive: true, force: true })
