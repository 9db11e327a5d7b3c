// `contain[permission]` of a list: the caller's highest permission on each item, joined to the
// list query as `p_` columns and answered as the item's `permission`.
import type { Knex } from '@mikro-orm/postgresql'
import { formatTimestamp } from '../../api/envelope.ts'
import type { Aco } from './levels.ts'
import type { PermissionJson } from './render.ts'
import { highestPermissionRows } from './service.ts'

const COLUMNS = ['id', 'aro', 'aro_foreign_key', 'type', 'created', 'modified'] as const

/** The `p_` columns a list row carries with `contain[permission]`. */
export interface CallerPermissionColumns {
  p_id?: string
  p_aro?: string
  p_aro_foreign_key?: string
  p_type?: number
  p_created?: string
  p_modified?: string
}

/** Joins the caller's highest permission on each item (`itemColumn`) of the list. */
export const joinCallerPermission = (
  list: Knex.QueryBuilder,
  knex: Knex,
  userId: string,
  aco: Aco,
  itemColumn: string,
) =>
  list
    .join(
      highestPermissionRows(knex, userId, aco).as('highest'),
      'highest.aco_foreign_key',
      itemColumn,
    )
    .select(COLUMNS.map((column) => `highest.${column} as p_${column}`))

/** The row's `permission`, when the list joined it. */
export const callerPermissionJson = (
  aco: Aco,
  row: CallerPermissionColumns & { id: string },
): PermissionJson | undefined =>
  row.p_id
    ? {
        id: row.p_id,
        aco,
        aco_foreign_key: row.id,
        aro: row.p_aro!,
        aro_foreign_key: row.p_aro_foreign_key!,
        type: Number(row.p_type),
        created: formatTimestamp(row.p_created),
        modified: formatTimestamp(row.p_modified),
      }
    : undefined
