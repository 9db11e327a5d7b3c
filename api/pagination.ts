// Lists as passbolt pages them: `page` and `limit` from the query string, the total count of
// matching rows in the envelope's `pagination`, all in the list's own query (a window count).
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import type { Pagination } from './envelope.ts'
import { selectRows } from './orm.ts'
import type { ParsedQuery } from './query.ts'

export interface Page<T> {
  rows: T[]
  pagination: Pagination
}

const TOTAL = '__total_count'

/**
 * Runs the list query for the requested page. Without `limit` every row comes back (passbolt
 * reports `limit: null`). The total rides along each row, so a page costs one statement; only
 * a page past the end needs a second one to count.
 */
export const selectPage = async <T extends object>(
  em: EntityManager,
  query: Pick<ParsedQuery, 'page' | 'limit'>,
  build: (knex: Knex) => Knex.QueryBuilder,
): Promise<Page<T>> => {
  const rows = await selectRows<T & { [TOTAL]: string }>(em, (knex) => {
    const list = build(knex).select(knex.raw(`count(*) over () as ${TOTAL}`))
    return query.limit === null
      ? list
      : list.limit(query.limit).offset((query.page - 1) * query.limit)
  })
  let count = rows.length > 0 ? Number(rows[0][TOTAL]) : 0
  if (rows.length === 0 && query.page > 1) {
    const [counted] = await selectRows<{ count: string }>(em, (knex) =>
      knex.count({ count: '*' }).from(build(knex).as('listed')),
    )
    count = Number(counted.count)
  }
  for (const row of rows) delete (row as Record<string, unknown>)[TOTAL]
  return { rows, pagination: { count, page: query.page, limit: query.limit } }
}

/**
 * Applies the request's order (`Model.field` names the route declared sortable) through the
 * route's map of those names to columns.
 */
export const applyOrder = (
  list: Knex.QueryBuilder,
  order: ParsedQuery['order'],
  columns: Readonly<Record<string, string>>,
) => {
  for (const { field, direction } of order) list.orderBy(columns[field], direction)
  return list
}
