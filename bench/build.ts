// Benchmark: `docs build` of the synthetic corpus, in a fresh process each run, reporting the
// wall time, the CPU time of all its threads and peak RSS (from /usr/bin/time: the process with
// its worker threads), and the load average (the machine is shared: CPU time is the steadier
// figure when others load it). Cold runs
// start without output or build cache; with --warm, each cold run is followed by a build with
// nothing changed and one with one page changed, whose output is compared byte for byte with a
// cold build of the same sources.
// Usage: node bin/run.js bench/build.ts [--pages 2000] [--runs 3] [--workers N] [--warm]
import { spawnSync } from 'node:child_process'
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { generateCorpus } from './generate-corpus.ts'

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '3' },
    workers: { type: 'string' },
    warm: { type: 'boolean', default: false },
  },
})
const root = fileURLToPath(new URL('..', import.meta.url))
const corpus = join(root, 'bench/corpus')
const out = join(root, 'bench/out')
const pages = Number(values.pages)

// The corpus is regenerated so every run of the benchmark builds the same pages.
const generated = generateCorpus({ pages, out: corpus })
console.log(`corpus: ${generated.pages} pages, ${generated.words} words`)

const docsBuild = (outDir: string, extra: string[] = []) => {
  const started = performance.now()
  const child = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%M %U %S',
      process.execPath,
      join(root, 'bin/docs.js'),
      '--root',
      corpus,
      'build',
      '--out',
      outDir,
      ...(values.workers ? ['--workers', values.workers] : []),
      ...extra,
    ],
    { encoding: 'utf8' },
  )
  const seconds = (performance.now() - started) / 1000
  if (child.status !== 0) throw new Error(`build failed:\n${child.stderr}`)
  const [rssKb, user, system] = child.stderr.trim().split('\n').at(-1)!.split(' ').map(Number)
  return { seconds, rssMb: rssKb / 1024, cpu: user + system }
}

/** Every file below `dir`, path to content. */
const tree = (dir: string) =>
  new Map(
    (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const path = join(entry.parentPath, entry.name)
        return [path.slice(dir.length), readFileSync(path)] as const
      }),
  )

const sameTree = (a: string, b: string) => {
  const left = tree(a)
  const right = tree(b)
  return (
    left.size === right.size && [...left].every(([path, bytes]) => right.get(path)?.equals(bytes))
  )
}

const format = ({ seconds, rssMb, cpu }: { seconds: number; rssMb: number; cpu: number }) =>
  `${seconds.toFixed(2)} s wall, ${cpu.toFixed(2)} s CPU (all threads), peak RSS ${rssMb.toFixed(0)} MiB, load ${loadavg()[0].toFixed(1)}`

const cold: { seconds: number; rssMb: number; cpu: number }[] = []
const page = join(corpus, 'content/docs/admin/topic-3/page-7.md')
for (let run = 0; run < Number(values.runs); run++) {
  rmSync(out, { recursive: true, force: true })
  rmSync(join(corpus, '.cache'), { recursive: true, force: true })
  const result = docsBuild(out)
  cold.push(result)
  console.log(`run ${run + 1}: cold ${format(result)}`)
  if (!values.warm) continue
  console.log(`  nothing changed: ${format(docsBuild(out))}`)
  appendFileSync(page, `\nEdited in run ${run + 1}.\n`)
  console.log(`  one page changed: ${format(docsBuild(out))}`)
  const reference = `${out}-cold`
  rmSync(reference, { recursive: true, force: true })
  docsBuild(reference, ['--no-cache'])
  console.log(`  output identical to a cold build: ${sameTree(out, reference)}`)
  rmSync(reference, { recursive: true, force: true })
}
const written = readdirSync(join(out, 'docs'), { recursive: true }).filter((f) =>
  String(f).endsWith('index.html'),
).length
const best = cold.reduce((a, b) => (a.seconds < b.seconds ? a : b))
console.log(
  `cold, best of ${cold.length}: ${best.seconds.toFixed(2)} s for ${written} pages, peak RSS ${Math.max(...cold.map((r) => r.rssMb)).toFixed(0)} MiB (largest of the runs)`,
)
if (!existsSync(resolve(out, 'docs/sitemap.xml'))) throw new Error('no sitemap written')
