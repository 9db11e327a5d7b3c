// One transaction around a unit of work, retried when PostgreSQL picks it as the victim of a
// deadlock or a serialisation failure; and row locks, so concurrent changes to one item queue
// up instead of interleaving.
import type { EntityManager } from '@mikro-orm/postgresql'
import { selectRows } from '../orm.ts'
import { RETRYABLE, sqlStateOf } from './errors.ts'

const ATTEMPTS = 3

/**
 * Runs `work` inside `em.transactional()`: anything it throws rolls everything back. When `em`
 * is already inside a transaction, `work` joins it.
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
 * Locks rows of `table` (`SELECT … FOR UPDATE`) until the transaction ends, in id order so two
 * requests locking overlapping sets cannot deadlock. Returns the ids that exist.
 */
export const lockRows = async (
  em: EntityManager,
  table: string,
  ids: readonly string[],
): Promise<Set<string>> => {
  if (!em.isInTransaction()) throw new Error('lockRows needs a transaction')
  if (ids.length === 0) return new Set()
  const rows = await selectRows<{ id: string }>(em, (knex) =>
    knex(table)
      .select('id')
      .whereIn('id', [...new Set(ids)])
      .orderBy('id')
      .forUpdate(),
  )
  return new Set(rows.map((row) => row.id))
}
