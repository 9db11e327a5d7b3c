// Profile: where a cold `docs build` spends its time. Runs the build with a V8 CPU profile of
// every thread (main, render workers, search worker), splits each profile's samples by build
// step (the steps' times are on the same monotonic clock) and prints, per step, the busiest
// threads and the packages or source folders their time went to.
// With --warm, a first build fills the build cache and the output, and the second one, with
// nothing changed, is profiled.
// Usage: node bin/run.js bench/profile-build.ts [--pages 2000] [--root DIR] [--top 6] [--warm]
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { generateCorpus } from './generate-corpus.ts'

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    root: { type: 'string' },
    top: { type: 'string', default: '6' },
    warm: { type: 'boolean', default: false },
  },
})
const repo = fileURLToPath(new URL('..', import.meta.url))
const root = values.root ?? join(repo, 'bench/corpus')
if (!values.root) generateCorpus({ pages: Number(values.pages), out: root })
const work = mkdtempSync(join(tmpdir(), 'keyward-profile-'))
const profiles = join(work, 'profiles')
const stagesFile = join(work, 'stages.json')

// A small driver runs the real build and writes its step times where this script reads them.
const driver = join(work, 'driver.mjs')
const { writeFileSync } = await import('node:fs')
writeFileSync(
  driver,
  `import { writeFileSync } from 'node:fs'
await import(${JSON.stringify(new URL('../bin/register-ts.js', import.meta.url).href)})
process.env.NODE_ENV ??= 'production'
const { build } = await import(${JSON.stringify(new URL('../cli/build.ts', import.meta.url).href)})
const result = await build({ root: ${JSON.stringify(root)}, outDir: ${JSON.stringify(join(work, 'out'))}, cacheDir: ${values.warm ? JSON.stringify(join(work, 'cache')) : 'false'} })
writeFileSync(${JSON.stringify(stagesFile)}, JSON.stringify(result.stages))
`,
)
if (values.warm)
  spawnSync(process.execPath, [driver], { env: { ...process.env, NODE_ENV: 'production' } })
const run = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profiles}`, driver], {
  encoding: 'utf8',
  env: { ...process.env, NODE_ENV: 'production' },
})
if (run.status !== 0) throw new Error(run.stderr)
const stages = JSON.parse(readFileSync(stagesFile, 'utf8')) as {
  name: string
  start: number
  end: number
}[]

interface Profile {
  nodes: { id: number; callFrame: { url: string; functionName: string } }[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
}

/** Where a function's time counts: its package, or its source folder in this repository. */
const bucketOf = (url: string, name: string) => {
  const pkg = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/)?.[1]
  if (pkg) return pkg
  if (url.startsWith('file://') && url.includes(repo))
    return url
      .slice(url.indexOf(repo) + repo.length)
      .split('/')
      .slice(0, 2)
      .join('/')
  if (url.startsWith('node:')) return 'node internals'
  return `(${name || 'native'})`
}

const threads = readdirSync(profiles)
  .sort()
  .map((file, i) => {
    const profile = JSON.parse(readFileSync(join(profiles, file), 'utf8')) as Profile
    const bucket = new Map(
      profile.nodes.map((n) => [n.id, bucketOf(n.callFrame.url, n.callFrame.functionName)]),
    )
    // Per step: bucket -> microseconds.
    const perStage = stages.map(() => new Map<string, number>())
    let time = profile.startTime
    profile.samples.forEach((id, s) => {
      time += profile.timeDeltas[s]
      const stage = stages.findIndex((st) => time >= st.start && time < st.end)
      if (stage === -1) return
      const name = bucket.get(id)!
      if (name === '((idle))' || name === '((program))') return
      perStage[stage].set(name, (perStage[stage].get(name) ?? 0) + profile.timeDeltas[s])
    })
    return { name: i === 0 ? 'main' : `thread ${i}`, perStage }
  })

const ms = (us: number) => `${(us / 1000).toFixed(0)} ms`
console.log(
  `${root}: ${values.warm ? 'warm build (nothing changed)' : 'cold build'}, CPU profile of every thread, split by step`,
)
for (const [i, stage] of stages.entries()) {
  console.log(`\n${stage.name}: ${ms(stage.end - stage.start)} wall`)
  for (const thread of threads) {
    const buckets = [...thread.perStage[i]].sort((a, b) => b[1] - a[1])
    const busy = buckets.reduce((n, [, us]) => n + us, 0)
    if (busy < 20_000) continue
    const top = buckets
      .slice(0, Number(values.top))
      .map(([name, us]) => `${name} ${ms(us)}`)
      .join(', ')
    console.log(`  ${thread.name}: ${ms(busy)} busy: ${top}`)
  }
}
rmSync(work, { recursive: true, force: true })
