// Benchmark: cold `docs build` of the synthetic corpus, in a fresh process each run, reporting
// pages per second and peak RSS (of the whole process tree's largest process, from /usr/bin/time).
// Usage: node bin/run.js bench/build.ts [--pages 2000] [--runs 3] [--workers N]
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { generateCorpus } from './generate-corpus.ts'

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '3' },
    workers: { type: 'string' },
  },
})
const root = fileURLToPath(new URL('..', import.meta.url))
const corpus = join(root, 'bench/corpus')
const out = join(root, 'bench/out')
const pages = Number(values.pages)

// The corpus is regenerated so every run of the benchmark builds the same pages.
const generated = generateCorpus({ pages, out: corpus })
console.log(`corpus: ${generated.pages} pages, ${generated.words} words`)

const results: { seconds: number; rssMb: number }[] = []
for (let run = 0; run < Number(values.runs); run++) {
  rmSync(out, { recursive: true, force: true })
  const started = performance.now()
  const child = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%M',
      process.execPath,
      join(root, 'bin/docs.js'),
      '--root',
      corpus,
      'build',
      '--out',
      out,
      ...(values.workers ? ['--workers', values.workers] : []),
    ],
    { encoding: 'utf8' },
  )
  const seconds = (performance.now() - started) / 1000
  if (child.status !== 0) throw new Error(`build failed:\n${child.stderr}`)
  const rssKb = Number(child.stderr.trim().split('\n').at(-1))
  results.push({ seconds, rssMb: rssKb / 1024 })
  console.log(
    `run ${run + 1}: ${seconds.toFixed(2)} s, ${(generated.pages / seconds).toFixed(0)} pages/s, peak RSS ${(rssKb / 1024).toFixed(0)} MB`,
  )
}
const written = readdirSync(join(out, 'docs'), { recursive: true }).filter((f) =>
  String(f).endsWith('index.html'),
).length
const best = results.reduce((a, b) => (a.seconds < b.seconds ? a : b))
console.log(
  `best of ${results.length}: ${best.seconds.toFixed(2)} s for ${written} pages = ${(written / best.seconds).toFixed(0)} pages/s (target >= 400), peak RSS ${Math.max(...results.map((r) => r.rssMb)).toFixed(0)} MB`,
)
if (!existsSync(resolve(out, 'docs/sitemap.xml'))) throw new Error('no sitemap written')
