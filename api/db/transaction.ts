// The one way a change reaches the database: one transaction around the unit of work, retried
// when PostgreSQL picks it as the victim of a deadlock or a serialisation failure; and the one
// way rows are locked, in one global order, so concurrent changes to one item queue up instead
// of interleaving, and two changes locking overlapping rows cannot deadlock each other.
import type { EntityManager } from '@mikro-orm/postgresql'
import { selectRows } from '../orm.ts'
import { RETRYABLE, sqlStateOf } from './errors.ts'

const ATTEMPTS = 3

/**
 * Runs `work` inside `em.transactional()`: anything it throws rolls everything back, and the
 * whole of `work` runs again (up to three times) when PostgreSQL aborts it as a deadlock victim
 * or on a serialisation failure. When `em` is already inside a transaction, `work` joins it.
 * Routes say `transaction: true` instead; code outside a route (a command, a sign-in step that
 * must commit on its own) calls this.
 */
export const runInTransaction = async <T>(
  em: EntityManager,
  work: (tx: EntityManager) => Promise<T>,
): Promise<T> => {
  if (em.isInTransaction()) return work(em)
  for (let attempt = 1; ; attempt++) {
    try {
      return await em.transactional((tx) => work(tx))
    } catch (error) {
      const state = sqlStateOf(error)
      if (attempt >= ATTEMPTS || !state || !RETRYABLE.has(state)) throw error
      em.clear()
    }
  }
}

/**
 * The order tables are locked in, first to last; tables not named here come after, by name.
 * A change locks what it needs in this order, then by id: the account (and the role it holds),
 * then the item it changes (a folder before the items inside, a resource), then the groups whose
 * members reach the item, then the tags on it.
 */
export const LOCK_ORDER = ['users', 'roles', 'folders', 'resources', 'groups', 'comments', 'tags']

/** `update` for rows the change writes; `share` for rows whose state the change relies on. */
export type LockMode = 'update' | 'share'

export interface LockRequest {
  table: string
  ids: readonly string[]
  /** @default 'update' */
  mode?: LockMode
}

const rank = (table: string) => {
  const index = LOCK_ORDER.indexOf(table)
  return index === -1 ? LOCK_ORDER.length : index
}

const byLockOrder = (a: LockRequest, b: LockRequest) =>
  rank(a.table) - rank(b.table) || (a.table < b.table ? -1 : a.table > b.table ? 1 : 0)

/**
 * Locks rows (`SELECT … FOR UPDATE` or `FOR SHARE`) until the transaction ends, tables in
 * `LOCK_ORDER`, each table's rows in id order. Returns the ids found, by table.
 */
export const lockInOrder = async (
  em: EntityManager,
  requests: readonly LockRequest[],
): Promise<Map<string, Set<string>>> => {
  if (!em.isInTransaction()) throw new Error('locking rows needs a transaction')
  const found = new Map<string, Set<string>>()
  for (const request of [...requests].sort(byLockOrder)) {
    const ids = [...new Set(request.ids)].sort()
    const have = found.get(request.table) ?? new Set<string>()
    found.set(request.table, have)
    if (ids.length === 0) continue
    const rows = await selectRows<{ id: string }>(em, (knex) => {
      const query = knex(request.table).select('id').whereIn('id', ids).orderBy('id')
      return request.mode === 'share' ? query.forShare() : query.forUpdate()
    })
    for (const row of rows) have.add(row.id)
  }
  return found
}

/** Locks rows of one table (see `lockInOrder`); returns the ids that exist. */
export const lockRows = async (
  em: EntityManager,
  table: string,
  ids: readonly string[],
  mode: LockMode = 'update',
): Promise<Set<string>> => (await lockInOrder(em, [{ table, ids, mode }])).get(table) ?? new Set()
