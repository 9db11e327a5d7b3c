// The throttle's counters live in PostgreSQL: two server processes (here two ORMs, each with its
// own pool, on one database) share every limit, a window starts again once it has ended, and
// purges run side by side without deleting a row twice or a live one at all.
import type { MikroORM } from '@mikro-orm/postgresql'
import test, { type ExecutionContext } from 'ava'
import { allMigrations, createOrm, migrate } from '../../api/orm.ts'
import { Throttle } from '../../api/throttle.ts'
import { plugins } from '../../plugins/index.ts'
import { createTestDatabase, query } from '../helpers/database.ts'

const twoProcesses = async (t: ExecutionContext) => {
  const url = await createTestDatabase(t)
  const orms: MikroORM[] = []
  for (let i = 0; i < 2; i++) {
    const orm = await createOrm({ url, entities: [], migrations: allMigrations(plugins) })
    t.teardown(() => orm.close())
    orms.push(orm)
  }
  await migrate(orms[0])
  const sql = (text: string, values: unknown[] = []) => query(url, text, values)
  return { a: new Throttle(orms[0]), b: new Throttle(orms[1]), sql }
}

const statusOf = async (promise: Promise<unknown>) => {
  try {
    await promise
    return 'ok'
  } catch (error) {
    const failed = error as { status?: number; headers?: Record<string, string> }
    return `${failed.status} after ${failed.headers?.['Retry-After']}`
  }
}

test('failures counted by one process refuse the next attempt in the other', async (t) => {
  const { a, b, sql } = await twoProcesses(t)
  const keys = [{ key: 'account|grace@keyward.test', limit: 3 }]
  await a.fail(keys)
  await b.fail(keys)
  t.is(await statusOf(a.check(keys)), 'ok')
  await a.fail(keys)
  const refused = await statusOf(b.check(keys))
  t.regex(refused, /^429 after (60|59)$/)
  t.is(await statusOf(b.check([{ key: 'account|other@keyward.test', limit: 3 }])), 'ok')
  // Only a digest of what was counted is stored, never the address itself.
  const rows = await sql('select key, hits from throttles')
  t.deepEqual(
    rows.map((row) => row.hits),
    [3],
  )
  t.regex(rows[0].key, /^[0-9a-f]{64}$/)
})

test('hits count successes too; concurrent hits from both processes are all counted', async (t) => {
  const { a, b } = await twoProcesses(t)
  const keys = [{ key: 'recover|account|grace', limit: 20, windowSeconds: 600 }]
  const outcomes = await Promise.all(
    Array.from({ length: 24 }, (_, i) => statusOf((i % 2 ? a : b).hit(keys))),
  )
  t.is(outcomes.filter((outcome) => outcome === 'ok').length, 20)
  const refused = outcomes.filter((outcome) => outcome !== 'ok')
  t.is(refused.length, 4)
  for (const outcome of refused) t.regex(outcome, /^429 after (600|599)$/)
})

test('a window that has ended starts again from one', async (t) => {
  const { a, b, sql } = await twoProcesses(t)
  const keys = [{ key: 'ip|203.0.113.7', limit: 2 }]
  await a.hit(keys)
  await a.hit(keys)
  t.regex(await statusOf(b.hit(keys)), /^429 after (60|59)$/)
  await sql("update throttles set window_ends = now() - interval '1 second'")
  t.is(await statusOf(b.hit(keys)), 'ok')
  t.deepEqual(
    (await sql('select hits from throttles')).map((row) => row.hits),
    [1],
  )
})

test('purges from both processes at once delete each ended window once and keep live ones', async (t) => {
  const { a, b, sql } = await twoProcesses(t)
  await sql(
    `insert into throttles (key, hits, window_ends)
     select md5(i::text) || md5((i + 1)::text), 1, now() - interval '1 minute'
     from generate_series(1, 12000) i`,
  )
  await a.hit([{ key: 'still counting', limit: 5 }])
  const purged = await Promise.all([a.purge(), b.purge(), a.purge()])
  t.is(
    purged.reduce((sum, n) => sum + n, 0),
    12_000,
  )
  t.deepEqual(
    (await sql('select hits from throttles')).map((row) => row.hits),
    [1],
  )
})
