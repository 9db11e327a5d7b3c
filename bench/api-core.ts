// Benchmark of the API core: bearer GET /users/me.json and GET /healthcheck/status.json on a
// real `api start` process, against the ceiling of a bare Koa route doing one `SELECT 1` through
// the same kind of pool, one after the other in one run; with the statements each request
// runs and the server's resident memory idle and under load.
// Usage: node bin/run.js bench/api-core.ts [--seconds 10] [--connections 50]
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import * as openpgp from 'openpgp'
import pg from 'pg'
import { bootApp, createLogger, shutdownApp } from '../api/app.ts'
import { loadConfig } from '../api/config.ts'
import { onQuery } from '../api/orm.ts'
import { listen } from '../api/server.ts'
import { plugins } from '../plugins/index.ts'
import { completeSetup, registerUser } from '../plugins/setup/index.ts'
import { generateUserKey, TestClient } from '../test/helpers/client.ts'
import { makeChallenge } from '../test/helpers/jwt.ts'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    /** Extra bearer routes to measure, for finding where time goes. */
    also: { type: 'string', multiple: true, default: [] },
    /** Write a CPU profile of the API server into this folder. */
    profile: { type: 'string' },
  },
})
const seconds = Number(values.seconds)
const connections = Number(values.connections)
const root = fileURLToPath(new URL('..', import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), 'keyward-bench-core-'))
const port = 19000 + Math.floor(Math.random() * 1000)
const base = `http://127.0.0.1:${port}`
const databaseUrl = 'postgres://postgres@127.0.0.1:5432/keyward_bench_core'
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' })
await admin.connect()
await admin.query('drop database if exists keyward_bench_core with (force)')
await admin.query('create database keyward_bench_core')
await admin.end()
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  KEYWARD_DATA_DIR: dataDir,
  KEYWARD_PORT: String(port),
  KEYWARD_APP_URL: `${base}/`,
  KEYWARD_LOG_LEVEL: 'warn',
}

const startProcess = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
  new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...env, ...extraEnv },
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

/** User plus system CPU time of a process so far, in milliseconds. */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}

const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

/** Load with autocannon while sampling the server's RSS; returns the figures of one run. */
const load = async (
  name: string,
  url: string,
  pid: number,
  headers: Record<string, string> = {},
) => {
  let peak = 0
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid))
  }, 100)
  const cpuBefore = cpuMs(pid)
  const result = await autocannon({ url, connections, duration: seconds, headers })
  clearInterval(sampler)
  return {
    name,
    cpuPerRequest: (cpuMs(pid) - cpuBefore) / result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
    peak,
  }
}

// The user and an access token, made in-process on the benchmark's database; the statement
// counts are taken in-process too, on the same routes.
const config = loadConfig({ env })
const app = await bootApp({ config, plugins, logger: createLogger({ logLevel: 'warn' }) })
const { user, url } = await registerUser(app.orm.em.fork(), app, {
  username: 'bench@keyward.test',
  firstName: 'Bench',
  lastName: 'User',
  role: 'user',
})
const key = await generateUserKey('bench@keyward.test')
await completeSetup(app.orm.em.fork(), user.id, url.split('/').at(-1)!, key.armoredPublicKey)
const local = await listen(app, 0, '127.0.0.1')
const localClient = new TestClient(local.url)
const challenge = await makeChallenge(localClient, key, base)
const login = await localClient.json('/auth/jwt/login.json', 'POST', {
  user_id: user.id,
  challenge,
})
const { data } = await openpgp.decrypt({
  message: await openpgp.readMessage({ armoredMessage: login.json.body.challenge }),
  decryptionKeys: key.privateKey,
})
const bearer = { authorization: `Bearer ${JSON.parse(String(data)).access_token}` }
/**
 * Statements of one request, after a first one that leaves what the server keeps filled, or,
 * `afterChange`, after a change that drops it.
 */
const statementsOf = async (
  path: string,
  headers: Record<string, string> = {},
  options: { afterChange?: boolean } = {},
) => {
  if (options.afterChange) app.changes.wroteHere()
  else await localClient.fetch(path, { headers })
  const seen: string[] = []
  const stop = onQuery(app.orm, (sql) => seen.push(sql))
  const response = await localClient.fetch(path, { headers })
  stop()
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
  return seen.length
}
const statements = {
  me: await statementsOf('/users/me.json', bearer),
  health: await statementsOf('/healthcheck/status.json'),
  meUnkept: await statementsOf('/users/me.json', bearer, { afterChange: true }),
}
await local.close()
await shutdownApp(app)

const ceiling = await startProcess([
  join(root, 'bin/run.js'),
  join(root, 'bench/ceiling-server.ts'),
  String(port + 1),
  databaseUrl,
])
const server = await startProcess([
  ...(values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] : []),
  join(root, 'bin/api.js'),
  'start',
])
// The same server keeping no answers: what each request costs when something changed since
// the last one, and what the view's statement costs.
const unkept = await startProcess([join(root, 'bin/api.js'), 'start'], {
  KEYWARD_PORT: String(port + 2),
  KEYWARD_LIST_CACHE_SIZE: '0',
})
try {
  await new Promise((resolve) => setTimeout(resolve, 1000))
  const idle = rssMiB(server.pid!)
  // Warm both up before measuring.
  await autocannon({ url: `http://127.0.0.1:${port + 1}/`, connections, duration: 2 })
  await autocannon({ url: `${base}/users/me.json`, connections, duration: 2, headers: bearer })
  await autocannon({
    url: `http://127.0.0.1:${port + 2}/users/me.json`,
    connections,
    duration: 2,
    headers: bearer,
  })
  const runs = [
    await load('bare Koa + SELECT 1 (ceiling)', `http://127.0.0.1:${port + 1}/`, ceiling.pid!),
    await load('GET /healthcheck/status.json', `${base}/healthcheck/status.json`, server.pid!),
    await load('bearer GET /users/me.json', `${base}/users/me.json`, server.pid!, bearer),
    await load(
      'bearer GET /users/me.json, nothing kept',
      `http://127.0.0.1:${port + 2}/users/me.json`,
      unkept.pid!,
      bearer,
    ),
    ...(await values.also.reduce<Promise<Awaited<ReturnType<typeof load>>[]>>(
      async (done, path) => [
        ...(await done),
        await load(`bearer GET ${path}`, `${base}${path}`, server.pid!, bearer),
      ],
      Promise.resolve([]),
    )),
  ]
  const top = runs[0].rps
  console.log(
    `\n${connections} connections, ${seconds} s per route, loopback; server RSS idle ${idle.toFixed(0)} MiB\n`,
  )
  console.log(
    '| route | req/s | of ceiling | p50 | p99 | server CPU per request | statements | peak RSS | errors |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|')
  const count = [
    1,
    statements.health,
    statements.me,
    statements.meUnkept,
    ...values.also.map(() => '?'),
  ]
  for (const [i, run] of runs.entries())
    console.log(
      `| ${run.name} | ${run.rps.toFixed(0)} | ${((run.rps / top) * 100).toFixed(0)} % | ${run.p50} ms | ${run.p99} ms | ${run.cpuPerRequest.toFixed(3)} ms | ${count[i]} | ${run.peak.toFixed(0)} MiB | ${run.errors} |`,
    )
} finally {
  for (const child of [server, unkept, ceiling]) {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
  }
  rmSync(dataDir, { recursive: true, force: true })
}
