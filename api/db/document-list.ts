// A list whose rows PostgreSQL writes as JSON documents, read from a cursor a batch at a time
// and sent as it is read (the resources list, the users directory): the server holds a batch,
// never the whole list, and the count is known before the answer starts.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import type { JsonRowBatches } from '../envelope.ts'
import { openRowCursor } from './row-cursor.ts'

/** The column each row carries its document in, and the one with the list's full count. */
export const DOCUMENT = 'document'
export const LIST_TOTAL = '__total'

/**
 * Rows read from the cursor at a time: about 2 MiB of documents with the resources' permission
 * tree. Batches of 2,000 made the server's memory grow by about 350 MiB while it sent 10,000
 * passwords with the permission tree, against under 40 MiB with these (bench/resources.ts).
 */
const BATCH = 500

export interface DocumentListOptions {
  /**
   * The list's own query (without documents), counted in the same snapshot when the page asked
   * for lies past the end and so carries no row to read the count from.
   */
  countPastEnd?: () => Knex.QueryBuilder
  /** PostgreSQL's `work_mem` for the statement (see `RowCursorOptions`). */
  workMem?: string
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
    const first = await cursor.read(BATCH)
    let count = first.length > 0 ? Number(first[0][LIST_TOTAL]) : 0
    if (first.length === 0 && options.countPastEnd) {
      const listed = options.countPastEnd
      const [counted] = await cursor.select<{ count: string }>((k) =>
        k.count({ count: '*' }).from(listed().as('listed')),
      )
      count = Number(counted.count)
    }
    let pending: Promise<DocumentRow[]> = Promise.resolve(first)
    let over = false
    const documents: JsonRowBatches = {
      next: async () => {
        if (over) return []
        const rows = await pending
        // A short batch is the last: the connection goes back before the client has it all.
        if (rows.length < BATCH) {
          over = true
          await cursor.close()
        } else {
          // The next batch is asked for now, so PostgreSQL sends it while this one is written.
          pending = cursor.read(BATCH)
          pending.catch(() => {})
        }
        return rows.map((row) => row[DOCUMENT])
      },
      close: cursor.close,
    }
    return { documents, count }
  } catch (error) {
    await cursor.close()
    throw error
  }
}
