// Benchmark: Lighthouse category scores of the built site, served by the production preview
// (`docs serve --dir`) on loopback, with Debian chromium, mobile (Lighthouse's default) and
// desktop presets. Lighthouse is not a dependency: it runs through `npx -y lighthouse@VERSION`
// (12.8.2 is the newest release whose engines allow Node 20; 13.x wants Node >= 22.19).
// Usage: node bin/run.js bench/lighthouse.ts [--dir build] [--page /docs/ ...]
//          [--preset mobile|desktop ...] [--lighthouse 12.8.2]
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { DEFAULT_PAGES, serveSite } from './page-weight.ts'

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
const CHROME_FLAGS = '--headless --no-sandbox --disable-gpu'

interface Audit {
  id: string
  title: string
  score: number | null
  scoreDisplayMode: string
  displayValue?: string
  errorMessage?: string
}
interface Report {
  lighthouseVersion: string
  runtimeError?: { code: string; message: string }
  runWarnings: string[]
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>
  audits: Record<string, Audit>
}

/** Runs `npx -y lighthouse@version ...args`; resolves with its stdout, rejects when it fails. */
const runLighthouse = (version: string, args: string[]) =>
  new Promise<string>((done, fail) => {
    // From a temporary folder, so npx can never mistake the repository for a place to install.
    const child = spawn('npx', ['-y', `lighthouse@${version}`, ...args], {
      cwd: tmpdir(),
      env: { ...process.env, CHROME_PATH: '/usr/bin/chromium' },
    })
    let stdout = ''
    let output = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
      output += chunk
    })
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', fail)
    child.on('exit', (code) =>
      code === 0 ? done(stdout) : fail(new Error(`lighthouse ${args[0]} failed:\n${output}`)),
    )
  })

/** Audits that cost a category points: scored below 1, or errored. */
const failingAudits = (report: Report, category: string) =>
  report.categories[category].auditRefs
    .map((ref) => ({ ref, audit: report.audits[ref.id] }))
    .sort((x, y) => y.ref.weight - x.ref.weight) // the audits that cost points first
    .filter(
      ({ audit }) =>
        audit.scoreDisplayMode === 'error' ||
        (audit.score !== null &&
          audit.score < 1 &&
          !['notApplicable', 'informative', 'manual'].includes(audit.scoreDisplayMode)),
    )
    .map(({ ref, audit }) => {
      const value = audit.errorMessage ?? audit.displayValue
      const score = audit.score === null ? 'error' : audit.score.toFixed(2)
      const weight = ref.weight ? `, weight ${ref.weight}` : ''
      return `${audit.id} (${audit.title}; score ${score}${weight}${value ? `; ${value}` : ''})`
    })

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    page: { type: 'string', multiple: true },
    preset: { type: 'string', multiple: true },
    lighthouse: { type: 'string', default: '12.8.2' },
  },
})
const version = values.lighthouse
const paths = values.page?.length ? values.page : DEFAULT_PAGES
const presets = values.preset?.length ? values.preset : ['mobile', 'desktop']
for (const preset of presets)
  if (preset !== 'mobile' && preset !== 'desktop')
    throw new Error(`--preset must be mobile or desktop, not ${preset}`)

// The first npx run downloads Lighthouse; keep that out of the page runs.
const fetched = performance.now()
const installed = (await runLighthouse(version, ['--version'])).trim()
console.log(
  `lighthouse ${installed} via npx (ready in ${((performance.now() - fetched) / 1000).toFixed(1)} s)`,
)

const reports = mkdtempSync(join(tmpdir(), 'keyward-lighthouse-'))
const site = await serveSite(values.dir)
const rows: string[] = []
const failures: string[] = []
try {
  for (const path of paths)
    for (const preset of presets) {
      const url = new URL(path, site.origin).href
      const output = join(reports, `${preset}-${path.replaceAll('/', '_')}.json`)
      await runLighthouse(version, [
        url,
        `--chrome-flags=${CHROME_FLAGS}`,
        '--output=json',
        `--output-path=${output}`,
        `--only-categories=${CATEGORIES.join(',')}`,
        '--quiet',
        ...(preset === 'desktop' ? ['--preset=desktop'] : []),
      ])
      const report = JSON.parse(readFileSync(output, 'utf8')) as Report
      if (report.runtimeError)
        throw new Error(
          `${url} (${preset}): ${report.runtimeError.code} ${report.runtimeError.message}`,
        )
      const scores = CATEGORIES.map((category) => {
        const score = report.categories[category].score
        return score === null ? 'n/a' : String(Math.round(score * 100))
      })
      rows.push(`| ${path} | ${preset} | ${scores.join(' | ')} |`)
      for (const category of CATEGORIES) {
        if (report.categories[category].score === 1) continue
        failures.push(
          `  ${path} ${preset} ${category}: ${failingAudits(report, category).join(', ')}`,
        )
      }
      for (const warning of report.runWarnings)
        failures.push(`  ${path} ${preset} warning: ${warning}`)
    }
} finally {
  await site.close()
  rmSync(reports, { recursive: true, force: true })
}

const chromium = execFileSync('/usr/bin/chromium', ['--version'], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'ignore'],
}).trim()
console.log(`${chromium}; scores x100, one run each, loopback`)
console.log(`| page | preset | ${CATEGORIES.join(' | ')} |`)
console.log(`|---|---|${CATEGORIES.map(() => '---|').join('')}`)
for (const row of rows) console.log(row)
console.log(
  failures.length
    ? `below 100 (failing audits):\n${failures.join('\n')}`
    : 'every category scores 100 on every page',
)
