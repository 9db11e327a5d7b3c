// The keys list: OpenPGP public keys filtered and paged as the clients ask.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import { selectRows } from '../../api/orm.ts'
import { selectPage } from '../../api/pagination.ts'
import type { ParsedQuery } from '../../api/query.ts'
import { GPGKEY_COLUMNS, type GpgkeyRow, gpgkeyJson } from '../users/index.ts'

export const SORTABLE = { 'Gpgkeys.key_id': 'gpgkeys.key_id' } as const

export interface KeyFilters {
  modifiedAfter?: Date
  deleted: boolean
  users?: string[]
}

const listQuery = (knex: Knex, filters: KeyFilters) => {
  const query = knex('gpgkeys')
    .where('gpgkeys.deleted', filters.deleted)
    .select(GPGKEY_COLUMNS.map((column) => `gpgkeys.${column}`))
  if (filters.modifiedAfter) query.where('gpgkeys.modified', '>', filters.modifiedAfter)
  if (filters.users) query.whereIn('gpgkeys.user_id', filters.users)
  return query
}

/** The page of keys matching the filters (live ones unless `deleted`). */
export const selectKeys = async (
  em: EntityManager,
  query: Pick<ParsedQuery, 'page' | 'limit' | 'order'>,
  filters: KeyFilters,
) => {
  const page = await selectPage<GpgkeyRow>(em, query, (knex) => {
    const list = listQuery(knex, filters)
    for (const { field, direction } of query.order)
      list.orderBy(SORTABLE[field as keyof typeof SORTABLE], direction)
    return list.orderBy([{ column: 'gpgkeys.user_id' }, { column: 'gpgkeys.id' }])
  })
  return { rows: page.rows.map(gpgkeyJson), pagination: page.pagination }
}

/** One key, live or deleted, by id. */
export const selectKey = async (em: EntityManager, id: string) => {
  const [row] = await selectRows<GpgkeyRow>(em, (knex) =>
    knex('gpgkeys').where('id', id).select(GPGKEY_COLUMNS),
  )
  return row && gpgkeyJson(row)
}
