// Rows of one statement read a batch at a time through a server-side cursor (pg-cursor), on a
// connection of the ORM's pool held for the cursor's life, in a read-only snapshot: an answer
// of tens of megabytes is sent as it is read instead of being held whole.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import Cursor from 'pg-cursor'

/** The node-postgres client knex's pool hands out, as far as the cursor uses it. */
interface PoolConnection {
  query<R>(sql: string, values?: readonly unknown[]): Promise<{ rows: R[] }>
  query<T>(cursor: Cursor<T>): Cursor<T>
  /** knex's mark of a connection its pool must drop rather than hand out again. */
  __knex__disposed?: unknown
}

interface KnexClient {
  acquireConnection(): Promise<PoolConnection>
  releaseConnection(connection: PoolConnection): Promise<void>
}

export interface RowCursor<T> {
  /** The next rows, at most `count`; none once every row was read. */
  read(count: number): Promise<T[]>
  /**
   * Rows of another statement, in the cursor's snapshot (a count that must agree with it). It
   * ends the reading: node-postgres sends nothing else on a connection while a cursor is open.
   */
  select<U>(build: (knex: Knex) => Knex.QueryBuilder): Promise<U[]>
  /**
   * Ends the snapshot and gives the connection back to the pool; once is enough, later calls
   * wait for the first. A connection in an unknown state is dropped by the pool instead.
   */
  close(): Promise<void>
}

/** Longest the end of a cursor and its transaction may take before the connection is dropped. */
const CLOSE_MS = 5_000

const withTimeout = <R>(work: Promise<R>, ms: number): Promise<R> => {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms)
    }),
  ]).finally(() => clearTimeout(timer))
}

export interface RowCursorOptions {
  /**
   * PostgreSQL's `work_mem` for this transaction alone (`'64MB'`), for a statement whose sort
   * would otherwise spill to disk. @default the server's
   */
  workMem?: string
}

/**
 * Opens `build`'s statement as a cursor in a REPEATABLE READ, READ ONLY transaction of its
 * own, so that every batch and `select` see one snapshot. It never joins a transaction `em`
 * may be in: it is for reads that answer a request, not for a unit of work. The caller must
 * `close()` it, whatever happens.
 */
export const openRowCursor = async <T>(
  em: EntityManager,
  build: (knex: Knex) => Knex.QueryBuilder,
  options: RowCursorOptions = {},
): Promise<RowCursor<T>> => {
  const knex = em.getKnex()
  const client = knex.client as unknown as KnexClient
  const connection = await client.acquireConnection()
  // Statements sent here are announced like the ORM's own, so `onQuery` listeners see them.
  const send = async <R>(sql: string, values: readonly unknown[] = []) => {
    knex.emit('query', { sql })
    return (await connection.query<R>(sql, values)).rows
  }
  let cursor: Cursor<T> | undefined
  // One step at a time on the connection: a close waits for the batch being read.
  let queue: Promise<unknown> = Promise.resolve()
  const step = <R>(work: () => Promise<R>): Promise<R> => {
    const done = queue.then(work)
    queue = done.catch(() => {})
    return done
  }
  // After a failed statement the connection's protocol state is not worth restoring: the pool
  // drops it (a connection that died is dropped anyway) and opens another when it needs one.
  let failed = false
  const failing = <R>(work: Promise<R>) =>
    work.catch((error: unknown) => {
      failed = true
      throw error
    })
  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= step(async () => {
      try {
        if (failed || connection.__knex__disposed)
          throw new Error('dropped after a failed cursor statement')
        await withTimeout(
          (async () => {
            await cursor?.close()
            await send('rollback')
          })(),
          CLOSE_MS,
        )
      } catch (error) {
        connection.__knex__disposed ??= error
      } finally {
        await client.releaseConnection(connection)
      }
    })
    return closing
  }
  try {
    await failing(send('begin isolation level repeatable read read only'))
    if (options.workMem)
      await failing(send("select set_config('work_mem', $1, true)", [options.workMem]))
    const { sql, bindings } = build(knex).toSQL().toNative()
    knex.emit('query', { sql })
    cursor = connection.query(new Cursor<T>(sql, bindings as unknown[]))
  } catch (error) {
    await close()
    throw error
  }
  const open = cursor
  return {
    read: (count) => step(() => failing(open.read(count))),
    select: <U>(statement: (knex: Knex) => Knex.QueryBuilder) =>
      step(async () => {
        await open.close()
        const { sql, bindings } = statement(knex).toSQL().toNative()
        return failing(send<U>(sql, bindings))
      }),
    close,
  }
}
