// OpenPGP public keys as the API answers them, with the facts read from each key when it was
// stored (bits, uid, key id, fingerprint, type, expiry, creation).
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import { formatTimestamp } from '../../api/envelope.ts'
import { selectRows } from '../../api/orm.ts'
import { selectPage } from '../../api/pagination.ts'
import type { ParsedQuery } from '../../api/query.ts'

const COLUMNS = [
  'id',
  'user_id',
  'armored_key',
  'bits',
  'uid',
  'key_id',
  'fingerprint',
  'type',
  'expires',
  'key_created',
  'deleted',
  'created',
  'modified',
] as const

interface KeyRow {
  id: string
  user_id: string
  armored_key: string
  bits: number | null
  uid: string
  key_id: string
  fingerprint: string
  type: string
  expires: string | null
  key_created: string | null
  deleted: boolean
  created: string
  modified: string
}

export const SORTABLE = { 'Gpgkeys.key_id': 'gpgkeys.key_id' } as const

export const gpgkeyJson = (row: KeyRow) => ({
  ...row,
  expires: formatTimestamp(row.expires),
  key_created: formatTimestamp(row.key_created),
  created: formatTimestamp(row.created),
  modified: formatTimestamp(row.modified),
})

export interface KeyFilters {
  modifiedAfter?: Date
  deleted: boolean
  users?: string[]
}

const listQuery = (knex: Knex, filters: KeyFilters) => {
  const query = knex('gpgkeys')
    .where('gpgkeys.deleted', filters.deleted)
    .select(COLUMNS.map((column) => `gpgkeys.${column}`))
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
  const page = await selectPage<KeyRow>(em, query, (knex) => {
    const list = listQuery(knex, filters)
    for (const { field, direction } of query.order)
      list.orderBy(SORTABLE[field as keyof typeof SORTABLE], direction)
    return list.orderBy([{ column: 'gpgkeys.user_id' }, { column: 'gpgkeys.id' }])
  })
  return { rows: page.rows.map(gpgkeyJson), pagination: page.pagination }
}

/** One key, live or deleted, by id. */
export const selectKey = async (em: EntityManager, id: string) => {
  const [row] = await selectRows<KeyRow>(em, (knex) =>
    knex('gpgkeys').where('id', id).select(COLUMNS),
  )
  return row && gpgkeyJson(row)
}
