// Database-wide invariants any test can check at its end, whatever requests ran before (and
// however they interleaved): each returns the violations it finds, an empty list when it holds.
import pg from 'pg'
import type { TestApi } from './api.ts'
import { query } from './database.ts'

/** Who can read each live resource: its user permissions, and the members of its live groups. */
const ACCESS = `
  select p.aco_foreign_key as resource_id, p.aro_foreign_key as user_id from permissions p
    where p.aco = 'Resource' and p.aro = 'User'
  union
  select p.aco_foreign_key, gu.user_id from permissions p
    join groups_users gu on gu.group_id = p.aro_foreign_key
    join groups g on g.id = gu.group_id and not g.deleted
    where p.aco = 'Resource' and p.aro = 'Group'`

/**
 * Every secret belongs to a user with access to a live resource, and every user with access
 * has exactly one secret of it.
 */
export const secretInvariantViolations = async (api: TestApi): Promise<string[]> => {
  const rows = await query(
    api.app.database.url,
    `with access as (${ACCESS})
    select 'missing ' || a.resource_id || ' ' || a.user_id as problem
      from access a join resources r on r.id = a.resource_id and not r.deleted
      where not exists (select 1 from secrets s where s.resource_id = a.resource_id and s.user_id = a.user_id)
    union all
    select 'extra ' || s.resource_id || ' ' || s.user_id from secrets s
      where not exists (select 1 from access a join resources r on r.id = a.resource_id and not r.deleted
        where a.resource_id = s.resource_id and a.user_id = s.user_id)
    union all
    select 'duplicate ' || resource_id || ' ' || user_id from secrets group by resource_id, user_id having count(*) > 1`,
  )
  return rows.map((row) => row.problem as string)
}

/**
 * A second connection holding rows locked (`SELECT … FOR UPDATE`) in an open transaction, so a
 * request that needs them waits: it widens the window of a race to something a test can hit.
 */
export const holdRows = async (api: TestApi, sql: string, values: unknown[] = []) => {
  const client = new pg.Client({ connectionString: api.app.database.url })
  await client.connect()
  await client.query('begin')
  const { rowCount } = await client.query(sql, values)
  if (!rowCount) throw new Error('holdRows locked nothing')
  return {
    release: async () => {
      await client.query('commit')
      await client.end()
    },
  }
}

/** How many server connections of this database are waiting for a lock. */
export const lockWaiters = async (api: TestApi): Promise<number> => {
  const [row] = await query(
    api.app.database.url,
    `select count(*)::int as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`,
  )
  return row.waiting as number
}

/** Waits until at least `count` connections wait for a lock, or `timeoutMs` passes; says which. */
export const waitForLockWaiters = async (api: TestApi, count: number, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if ((await lockWaiters(api)) >= count) return true
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return false
}
