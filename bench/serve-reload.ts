// Benchmark: in `docs serve`, the time from saving a page until the edit shows in the open tab
// of a real browser (Debian chromium via playwright-core), on the synthetic corpus.
// Usage: node bin/run.js bench/serve-reload.ts [--pages 2000] [--edits 20] [--gap 300]
// Without --gap each save waits until the tab is idle (an author reading between saves); with
// it, saves follow each other every <gap> ms (an editor saving while the author types), each
// once the previous one shows.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { chromium } from 'playwright-core'
import { startServer } from '../cli/serve/serve.ts'
import { generateCorpus } from './generate-corpus.ts'

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    edits: { type: 'string', default: '20' },
    gap: { type: 'string' },
  },
})
const root = join(fileURLToPath(new URL('.', import.meta.url)), 'corpus')
generateCorpus({ pages: Number(values.pages), out: root })

const quietLog = console.log
if (!process.env.DEBUG) console.log = () => {} // the dev server reports each rebuild; keep the figures readable
const startedAt = performance.now()
const server = await startServer({ root, port: 0, host: '127.0.0.1' })
const firstBuild = performance.now() - startedAt
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
})
try {
  const page = await browser.newPage()
  const file = join(root, 'content/docs/admin/topic-3/page-7.md')
  const original = readFileSync(file, 'utf8')
  await page.goto(new URL('admin/topic-3/page-7/', server.url).href)
  await page.waitForFunction(() => document.readyState === 'complete')
  await new Promise((r) => setTimeout(r, 500)) // let the live-reload connection open
  // A second listener in this process tells the server's share (save to reload event).
  const events = await fetch(new URL('/__docs/events', server.url))
  const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader()
  const nextReload = async () => {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) throw new Error('the live-reload stream ended')
      if (value.includes('event: reload')) return performance.now()
    }
  }
  /** When `marker` is in the tab's content (checked each frame), across a full reload if any. */
  const shown = async (marker: string) => {
    for (;;) {
      try {
        await page.waitForFunction(
          (text) => !!document.getElementById('page-root')?.textContent?.includes(text),
          marker,
          { polling: 'raf', timeout: 10_000 },
        )
        return performance.now()
      } catch (error) {
        // A full reload ends the document the check ran in; check again in the new one.
        if (!/context was destroyed|navigat/i.test(String(error))) throw error
      }
    }
  }
  let reloads = 0
  page.on('domcontentloaded', () => reloads++)
  const gap = values.gap === undefined ? undefined : Number(values.gap)
  const times: number[] = []
  const serverTimes: number[] = []
  for (let i = 0; i < Number(values.edits); i++) {
    const marker = `edit-marker-${i}`
    const signalled = nextReload()
    const saved = performance.now()
    writeFileSync(file, `${original}\n\n${marker}\n`)
    const [reloadEvent, visible] = await Promise.all([
      signalled,
      shown(marker).catch((error) => {
        throw new Error(`edit ${i} did not show in the tab: ${error}`)
      }),
    ])
    serverTimes.push(reloadEvent - saved)
    times.push(visible - saved)
    if (gap !== undefined) {
      await new Promise((r) => setTimeout(r, Math.max(0, saved + gap - performance.now())))
      continue
    }
    // An author saves again seconds later, not while the page is still starting up: let it
    // finish (load, hydration, idle work) before the next save.
    await page.waitForFunction(() => document.readyState === 'complete')
    await page.evaluate(
      () => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 2000 })),
    )
  }
  writeFileSync(file, original)
  await reader.cancel()
  const pct = (p: number, list = times) => {
    const sorted = [...list].sort((a, b) => a - b)
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1)
  }
  console.log = quietLog
  console.log(`corpus ${values.pages} pages; first dev build ${(firstBuild / 1000).toFixed(1)} s`)
  const pace = gap === undefined ? 'each once the tab is idle' : `every ${gap} ms`
  console.log(
    `save to the edit shown in the tab, ${times.length} edits ${pace}: p50 ${pct(50)} ms, p95 ${pct(95)} ms, max ${Math.max(...times).toFixed(1)} ms (target < 150 ms p95); full page loads: ${reloads}`,
  )
  console.log(
    `  of which save to the server's reload event: p50 ${pct(50, serverTimes)} ms, p95 ${pct(95, serverTimes)} ms`,
  )
} finally {
  await browser.close()
  await server.close()
}
