// What the search box downloads on a generated site big enough for its index to be split in
// many chunks: a query typed at once fetches what the whole query needs and nothing for the
// prefixes typed on the way, within the 300 KiB gz budget.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import test from 'ava'
import { generateCorpus } from '../../bench/generate-corpus.ts'
import { build } from '../../cli/build.ts'
import { type RunningServer, startServer } from '../../cli/serve/serve.ts'
import { MAX_SUGGESTIONS } from '../../templates/search/options.ts'
import { type SearchRoot, ShardedIndex } from '../../templates/search/sharded.ts'
import { closeBrowser, hydrated, newPage } from '../helpers/browser.ts'

let work: string
let out: string
let server: RunningServer

test.before(async () => {
  work = mkdtempSync(join(tmpdir(), 'keyward-search-download-'))
  const root = join(work, 'site')
  out = join(work, 'out')
  generateCorpus({ pages: 300, out: root })
  await build({ root, outDir: out, cacheDir: false })
  server = await startServer({ root, port: 0, host: '127.0.0.1', dir: out })
})

test.after.always(async () => {
  await closeBrowser()
  await server?.close()
  rmSync(work, { recursive: true, force: true })
})

const searchDir = () => join(out, 'docs/assets/search')

/** The index files a single lookup of `q` needs: root, term chunks, its hits' stored fields. */
const filesOfOneQuery = async (q: string, context: string) => {
  const manifest = JSON.parse(readFileSync(join(out, 'docs/search-manifest.json'), 'utf8'))
  const rootFile = join(out, manifest.versions.current)
  const files = new Set([basename(rootFile)])
  const index = new ShardedIndex(
    JSON.parse(readFileSync(rootFile, 'utf8')) as SearchRoot,
    async (file) => {
      files.add(file)
      return JSON.parse(readFileSync(join(searchDir(), file), 'utf8'))
    },
  )
  const results = await index.search(q, context)
  await index.stored(results.slice(0, MAX_SUGGESTIONS).map((result) => result.id))
  return files
}

test('a two-word query typed at once fetches only the chunks the whole query needs, within 300 KiB gz', async (t) => {
  const q = 'passphrase policy'
  const { page } = await newPage(t)
  const fetched = new Set<string>()
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname
    if (path.includes('/assets/search/')) fetched.add(basename(path))
  })
  await page.goto(new URL('/docs/admin/topic-1/page-3/', server.url).href)
  await hydrated(page)
  await page.locator('#docs-search').click()
  // Every prefix as its own input event in its own task, typed from inside the page: with
  // keyboard.type each key is a round trip from the test process, which a loaded machine can
  // stretch past the search box's pause.
  await page.evaluate(async (text) => {
    const input = document.querySelector<HTMLInputElement>('#docs-search')!
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
    for (let i = 1; i <= text.length; i++) {
      setValue.call(input, text.slice(0, i))
      input.dispatchEvent(new Event('input', { bubbles: true }))
      await new Promise((resolve) => setTimeout(resolve, 0))
    }
  }, q)
  await page.waitForSelector(
    `.navbar-search[data-answered="${q}"] #docs-search-listbox [role="option"]`,
  )
  const expected = await filesOfOneQuery(q, 'admin')
  t.true(expected.size > 3, 'the query needs several chunks of a split index')
  t.deepEqual([...fetched].sort(), [...expected].sort())
  const kib =
    [...fetched].reduce(
      (n, file) => n + gzipSync(readFileSync(join(searchDir(), file)), { level: 9 }).length,
      0,
    ) / 1024
  t.true(kib <= 300, `${kib.toFixed(1)} KiB gz`)
})
