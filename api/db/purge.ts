// Deleting what has expired, from any number of processes at once: in batches, each batch
// taking only rows no other purge (or writer) holds, so purges never wait for each other, never
// delete a row twice, and never hold many rows for long.
import type { Knex } from '@mikro-orm/postgresql'

/** @default rows deleted by one statement */
const BATCH = 5_000

/**
 * Deletes the rows of `table` that `expired` selects, batch after batch, until a batch comes
 * back short; returns how many went. Runs on the pool, outside any request's transaction.
 */
export const purgeInBatches = async (
  knex: Knex,
  table: string,
  key: string,
  expired: (query: Knex.QueryBuilder) => Knex.QueryBuilder,
  batch = BATCH,
): Promise<number> => {
  let total = 0
  for (;;) {
    const deleted: number = await expired(
      knex(table).whereIn(
        key,
        expired(knex(table).select(key)).limit(batch).forUpdate().skipLocked(),
      ),
    ).delete()
    total += deleted
    if (deleted < batch) return total
  }
}
