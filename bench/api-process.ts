// What the API benchmarks share: a fresh database, the environment of a real `api start`
// process on a random loopback port, starting and stopping that process, users set up with real
// keys, and the figures read from /proc.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { get as httpGet } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { type AppContext, bootApp, createLogger, shutdownApp } from '../api/app.ts'
import { loadConfig } from '../api/config.ts'
import { plugins } from '../plugins/index.ts'
import { completeSetup, registerUser } from '../plugins/setup/index.ts'
import { generateUserKey } from '../test/helpers/client.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

export interface BenchServer {
  base: string
  databaseUrl: string
  env: NodeJS.ProcessEnv
  /** Removes the data folder; call when done. */
  cleanup(): void
}

/** Drops and creates `keyward_<name>` and prepares the environment of a server using it. */
export const prepareBenchServer = async (name: string): Promise<BenchServer> => {
  // KEYWARD_BENCH_DB_SUFFIX keeps benches run side by side (in several worktrees) apart.
  const database = `keyward_${name}${process.env.KEYWARD_BENCH_DB_SUFFIX ?? ''}`
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' })
  await admin.connect()
  await admin.query(`drop database if exists ${database} with (force)`)
  await admin.query(`create database ${database}`)
  await admin.end()
  const dataDir = mkdtempSync(join(tmpdir(), `keyward-${name}-`))
  const port = 19000 + Math.floor(Math.random() * 1000)
  const base = `http://127.0.0.1:${port}`
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${database}`
  return {
    base,
    databaseUrl,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      KEYWARD_DATA_DIR: dataDir,
      KEYWARD_PORT: String(port),
      KEYWARD_APP_URL: `${base}/`,
      KEYWARD_LOG_LEVEL: 'warn',
      KEYWARD_AUTH_RATE_LIMIT: '100000',
    },
    cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
  }
}

/** Starts `api start` (or other node arguments) and resolves once it listens. */
export const startApiProcess = (
  env: NodeJS.ProcessEnv,
  options: { profileDir?: string; args?: string[] } = {},
) =>
  new Promise<ChildProcess>((resolve, reject) => {
    const profile = options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : []
    const args = options.args ?? [join(root, 'bin/api.js'), 'start']
    const child = spawn(process.execPath, [...profile, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout!.on('data', (chunk) => {
      out += chunk
      if (out.includes('listening on')) {
        child.stdout!.resume()
        resolve(child)
      }
    })
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)))
  })

export const stopProcess = async (child: ChildProcess) => {
  // A process ended by a signal has no exit code, only the signal.
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
}

/** Registers a user and completes their setup with a fresh key, as the setup flow does. */
export const setUpUser = async (app: AppContext, name: string, role: 'user' | 'admin' = 'user') => {
  const { user, url } = await registerUser(app.orm.em.fork(), app, {
    username: `${name}@keyward.test`,
    firstName: name,
    lastName: 'Bench',
    role,
  })
  const key = await generateUserKey(`${name}@keyward.test`)
  await completeSetup(app.orm.em.fork(), user.id, url.split('/').at(-1)!, key.armoredPublicKey)
  return { id: user.id, key }
}

/**
 * Users made through the real setup flow on the bench's database (the server booted in this
 * process just for that), and a client on the database for seeding the rest with SQL.
 */
export const setUpUsers = async (bench: BenchServer, names: readonly string[]) => {
  const app = await bootApp({
    config: loadConfig({ env: bench.env }),
    plugins,
    logger: createLogger({ logLevel: 'warn' }),
  })
  const users: Awaited<ReturnType<typeof setUpUser>>[] = []
  for (const name of names) users.push(await setUpUser(app, name))
  await shutdownApp(app)
  const db = new pg.Client({ connectionString: bench.databaseUrl })
  await db.connect()
  return { users, db }
}

export const percentile = (list: number[], p: number) => {
  const sorted = [...list].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]
}

export const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

/** User plus system CPU time of a process so far, in milliseconds. */
export const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}

/** The machine's load averages over 1, 5 and 15 minutes, as `uptime` prints them. */
export const loadAverage = () =>
  readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(', ')

/**
 * The ceiling of the API benchmarks beside the bench's server: a bare Koa route doing one
 * `SELECT 1` through the same kind of pool (`ceiling-server.ts`), on the next port.
 */
export const startCeiling = async (bench: BenchServer) => {
  const port = Number(new URL(bench.base).port) + 1
  const process = await startApiProcess(bench.env, {
    args: [
      join(root, 'bin/run.js'),
      join(root, 'bench/ceiling-server.ts'),
      String(port),
      bench.databaseUrl,
    ],
  })
  return { process, url: `http://127.0.0.1:${port}/` }
}

export interface Figures {
  p50: number
  p95: number
  cpu: number
  count: number
  bytes: number
  growth: number
}

/**
 * A GET on a connection of its own: a connection kept alive after an answer that took longer
 * than the server's header timeout (10 s, seen at load averages above 25) is closed by the
 * server when the next request comes.
 */
const get = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    httpGet(url, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({ status: response.statusCode!, text: Buffer.concat(chunks).toString() }),
      )
      response.on('error', reject)
    }).on('error', reject)
  })

/**
 * A change made behind the server's back (`statement`), then time for the server to hear of
 * it: run before each request, it shows what a list costs after such a change.
 */
export const changeBefore =
  (
    db: { query(sql: string, values?: unknown[]): Promise<unknown> },
    statement: string,
    values: unknown[] = [],
  ) =>
  async () => {
    await db.query(statement, values)
    await new Promise((resolve) => setTimeout(resolve, 30))
  }

/** `runs` sequential requests after two warm-ups; the RSS growth is the peak over the RSS before. */
export const measure = async (
  server: ChildProcess,
  url: string,
  headers: Record<string, string>,
  runs: number,
  /** Run before each request, outside its time (a change, so that nothing kept answers). */
  beforeEach?: () => Promise<unknown>,
): Promise<Figures> => {
  const before = rssMiB(server.pid!)
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMiB(server.pid!))
  }, 10)
  const times: number[] = []
  let cpu = 0
  let bytes = 0
  let count = 0
  try {
    for (let i = 0; i < runs + 2; i++) {
      await beforeEach?.()
      const cpuBefore = cpuMs(server.pid!)
      const started = performance.now()
      const { status, text } = await get(url, headers)
      const elapsed = performance.now() - started
      if (status !== 200) throw new Error(`${url}: ${status} ${text.slice(0, 200)}`)
      if (i >= 2) {
        times.push(elapsed)
        cpu += cpuMs(server.pid!) - cpuBefore
      }
      bytes = text.length
      const body = JSON.parse(text).body
      count = Array.isArray(body) ? body.length : 1
    }
  } finally {
    clearInterval(sampler)
  }
  return {
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    cpu: cpu / runs,
    count,
    bytes,
    growth: peak - before,
  }
}
