// A list whose rows PostgreSQL writes as JSON documents, read from a cursor a batch at a time
// and sent as it is read (the resources list, the users directory): the server holds a batch,
// never the whole list, and the count is known before the answer starts.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import type { JsonRowBatches } from '../envelope.ts'
import type { ListKeeper } from './list-cache.ts'
import { openRowCursor } from './row-cursor.ts'

/** The column each row carries its document in, and the one with the list's full count. */
export const DOCUMENT = 'document'
export const LIST_TOTAL = '__total'

/**
 * Rows of the first batch: the count comes with it, and its documents' size sets the next
 * batches' (`nextBatch`).
 */
const FIRST_BATCH = 500

/**
 * About how much text a batch holds after the first. The batch, its joined text and its bytes
 * on their way to the socket are alive at once, and the garbage collector lets large strings
 * pile up between collections: batches of 2,000 documents of the resources' permission tree
 * (about 8 MiB) made the server's memory grow by about 350 MiB while it sent 10,000 passwords,
 * against under 40 MiB with 500 (about 2 MiB; bench/resources.ts).
 */
const BATCH_TEXT = 1024 * 1024

/** Rows of the next batch, for documents the size of `rows`: small documents, more a batch. */
const nextBatch = (rows: readonly string[]) => {
  const length = rows.reduce((sum, row) => sum + row.length, 0) / Math.max(rows.length, 1)
  return Math.min(2_000, Math.max(50, Math.round(BATCH_TEXT / Math.max(length, 1))))
}

export interface DocumentListOptions {
  /**
   * The list's own query (without documents), counted in the same snapshot when the page asked
   * for lies past the end and so carries no row to read the count from.
   */
  countPastEnd?: () => Knex.QueryBuilder
  /** PostgreSQL's `work_mem` for the statement (see `RowCursorOptions`). */
  workMem?: string
  /** Given each batch as it is sent, and the count once the whole list was sent. */
  keeper?: ListKeeper
}

type DocumentRow = { [DOCUMENT]: string; [LIST_TOTAL]: string }

/**
 * Opens `statement` (rows of `document` and `__total`, in the list's order) and reads its first
 * batch, so that the count is known and a failure is an ordinary error answer; the rest is read
 * as the answer is written, the next batch asked for while one is sent.
 */
export const readDocumentList = async (
  em: EntityManager,
  statement: Knex.QueryBuilder,
  options: DocumentListOptions = {},
): Promise<{ documents: JsonRowBatches; count: number }> => {
  const cursor = await openRowCursor<DocumentRow>(em, () => statement, {
    workMem: options.workMem,
  })
  try {
    const first = await cursor.read(FIRST_BATCH)
    let count = first.length > 0 ? Number(first[0][LIST_TOTAL]) : 0
    if (first.length === 0 && options.countPastEnd) {
      const listed = options.countPastEnd
      const [counted] = await cursor.select<{ count: string }>((k) =>
        k.count({ count: '*' }).from(listed().as('listed')),
      )
      count = Number(counted.count)
    }
    const { keeper } = options
    if (keeper) {
      // A first batch cut short is the whole list; else the count says how many will come.
      const firstSize = first.reduce((sum, row) => sum + row[DOCUMENT].length, 0)
      keeper.expect(first.length < FIRST_BATCH ? firstSize : (firstSize / first.length) * count)
    }
    let pending = { rows: Promise.resolve(first), asked: FIRST_BATCH }
    let over = false
    const documents: JsonRowBatches = {
      next: async () => {
        // The list was sent whole.
        if (over) {
          keeper?.finish(count)
          return []
        }
        const rows = await pending.rows
        const texts = rows.map((row) => row[DOCUMENT])
        // A short batch is the last: the connection goes back before the client has it all.
        if (rows.length < pending.asked) {
          over = true
          await cursor.close()
          if (texts.length === 0) keeper?.finish(count)
        } else {
          // The next batch is asked for now, so PostgreSQL sends it while this one is written.
          const asked = nextBatch(texts)
          pending = { rows: cursor.read(asked), asked }
          pending.rows.catch(() => {})
        }
        return texts
      },
      sent: (batch) => keeper?.add(batch),
      close: cursor.close,
    }
    return { documents, count }
  } catch (error) {
    await cursor.close()
    throw error
  }
}
