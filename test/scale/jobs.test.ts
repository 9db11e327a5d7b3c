// Periodic jobs run once a period however many processes share the database: two servers on one
// database start a job once between them, again only when the period is over; the auth purge
// removes expired tokens and idle sessions and keeps live ones.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'ava'
import { type AppContext, bootApp, createLogger, shutdownApp } from '../../api/app.ts'
import { loadConfig } from '../../api/config.ts'
import { onQuery } from '../../api/orm.ts'
import { definePlugin } from '../../api/plugin.ts'
import { plugins } from '../../plugins/index.ts'
import { FIXTURE_KEYS_ENV, testAuthPlugin } from '../helpers/api.ts'
import { createTestDatabase, query } from '../helpers/database.ts'

const startTwo = async (t: import('ava').ExecutionContext, runs: string[]) => {
  const databaseUrl = await createTestDatabase(t)
  const dataDir = mkdtempSync(join(tmpdir(), 'keyward-jobs-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const boot = async (label: string): Promise<AppContext> => {
    const counting = definePlugin({
      name: 'counting',
      jobs: [
        {
          name: 'test.count',
          everyMs: 3_600_000,
          run: async () => {
            runs.push(label)
          },
        },
      ],
    })
    const app = await bootApp({
      config: loadConfig({
        env: { DATABASE_URL: databaseUrl, KEYWARD_DATA_DIR: dataDir, ...FIXTURE_KEYS_ENV },
      }),
      plugins: [...plugins, testAuthPlugin, counting],
      logger: createLogger({ logLevel: 'silent' }),
    })
    t.teardown(() => shutdownApp(app))
    return app
  }
  // One after the other: the first migrates the new database.
  const first = await boot('first')
  return [first, await boot('second')] as const
}

/** The period of every job is over. */
const periodOver = (app: AppContext) =>
  query(app.database.url, "update scheduled_jobs set last_started = now() - interval '2 hours'")

test('a job runs once a period across two processes, and again once the period is over', async (t) => {
  const runs: string[] = []
  const [first, second] = await startTwo(t, runs)
  // Both looked at start; one of them took the period.
  await Promise.all([first.jobs.runDue(), second.jobs.runDue()])
  t.is(runs.length, 1)
  await Promise.all([first.jobs.runDue(), second.jobs.runDue()])
  t.is(runs.length, 1, 'not again within the period')
  await periodOver(first)
  const seen: string[] = []
  const stop = onQuery(first.orm, (sql) => seen.push(sql))
  await Promise.all([first.jobs.runDue(), second.jobs.runDue(), first.jobs.runDue()])
  stop()
  t.is(runs.length, 2)
  t.deepEqual(seen, [], "a process's own work is not counted as a request's statements")
})

test('the auth purge removes expired tokens and idle sessions, and keeps live ones', async (t) => {
  const [first, second] = await startTwo(t, [])
  const url = first.database.url
  const token = (type: string, ageMs: number) =>
    query(
      url,
      `insert into authentication_tokens (id, token, user_id, type, active, data, created, modified)
       values ($1, $2, null, $3, false, null, $4, $4)`,
      [randomUUID(), randomUUID(), type, new Date(Date.now() - ageMs)],
    )
  const hour = 3_600_000
  await token('login', 10 * 60_000) // a 5-minute challenge, 10 minutes old
  await token('login', 60_000)
  await token('refresh_token', 31 * 24 * hour)
  await token('refresh_token', 29 * 24 * hour) // spent, kept so its replay is recognised
  await token('verify_token', 2 * hour)
  const session = (id: string, idleMs: number) =>
    query(url, 'insert into sessions (id, user_id, last_activity) values ($1, null, $2)', [
      id,
      new Date(Date.now() - idleMs),
    ])
  await session('idle', 25 * 60_000) // the timeout is 24 minutes
  await session('live', 60_000)
  await periodOver(first)
  await Promise.all([first.jobs.runDue(), second.jobs.runDue()])
  const left = await query(url, 'select type from authentication_tokens order by type')
  t.deepEqual(
    left.map((row) => row.type),
    ['login', 'refresh_token'],
  )
  t.deepEqual(
    (await query(url, 'select id from sessions')).map((row) => row.id),
    ['live'],
  )
})
