// Benchmark: `api start` readiness on an existing database, idle RSS, and a bounded autocannon
// load on GET /healthcheck/status.json over loopback.
// Usage: node bin/run.js bench/api-healthcheck.ts [--connections 50] [--seconds 10] [--embedded]
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import pg from 'pg'

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '10' },
    embedded: { type: 'boolean', default: false },
  },
})
const bin = fileURLToPath(new URL('../bin/api.js', import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), 'keyward-bench-'))
const port = 18000 + Math.floor(Math.random() * 1000)
const env: NodeJS.ProcessEnv = {
  ...process.env,
  KEYWARD_DATA_DIR: dataDir,
  KEYWARD_PORT: String(port),
}

const adminUrl = 'postgres://postgres@127.0.0.1:5432/postgres'
if (!values.embedded) {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  await client.query('drop database if exists keyward_bench with (force)')
  await client.query('create database keyward_bench')
  await client.end()
  env.DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/keyward_bench'
} else env.KEYWARD_EMBEDDED_PG_PORT = String(port + 1000)

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

/** Starts `api start`; resolves with the process and the milliseconds until it printed its URL. */
const start = () =>
  new Promise<{ child: ReturnType<typeof spawn>; readyMs: number }>((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [bin, 'start'], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    const onData = (chunk: Buffer) => {
      out += chunk
      if (!out.includes('listening on')) return
      // From here on the request log is drained unread, as a log shipper would.
      child.stdout!.off('data', onData)
      child.stdout!.resume()
      resolve({ child, readyMs: performance.now() - started })
    }
    child.stdout!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`api start exited with ${code}: ${out}`)))
  })
const stop = (child: ReturnType<typeof spawn>) =>
  new Promise<void>((resolve) => {
    child.removeAllListeners('exit')
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })

try {
  // The first start migrates (and, embedded, initialises the cluster); the figure is the second.
  const first = await start()
  console.log(`first start (fresh database): ${first.readyMs.toFixed(0)} ms`)
  await stop(first.child)
  const { child, readyMs } = await start()
  console.log(
    `api start ready on an existing ${values.embedded ? 'embedded' : 'external'} database: ${readyMs.toFixed(0)} ms (target < 2000 ms)`,
  )
  await new Promise((resolve) => setTimeout(resolve, 2000))
  console.log(`idle RSS: ${rssMb(child.pid!).toFixed(0)} MB (target < 150 MB)`)
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/healthcheck/status.json`,
    connections: Number(values.connections),
    duration: Number(values.seconds),
  })
  console.log(
    `GET /healthcheck/status.json, ${values.connections} connections, ${values.seconds} s: ${result.requests.average.toFixed(0)} req/s, ` +
      `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${result.errors}, non-2xx ${result.non2xx} ` +
      '(target >= 8000 req/s, p99 < 15 ms)',
  )
  console.log(`RSS after load: ${rssMb(child.pid!).toFixed(0)} MB`)
  await stop(child)
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
