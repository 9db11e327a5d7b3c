// A user's effective permission on items: the highest level among the permissions held by the
// user or by any live group they belong to. Lists join `readableBy` so that they never load an
// item the caller may not see, and get the caller's level for every row in the same query.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import { HttpError, notFound } from '../../api/errors.ts'
import { selectRows } from '../../api/orm.ts'
import type { Aco, Level } from './levels.ts'

/** The caller and the live groups they belong to: every `aro_foreign_key` that counts for them. */
export const arosOf = (knex: Knex, userId: string) =>
  knex
    .select('group_members.group_id as aro_id')
    .from('group_members')
    .join('group_records', 'group_records.id', 'group_members.group_id')
    .where('group_members.user_id', userId)
    .andWhere('group_records.deleted', false)
    .union(knex.raw('select ?::uuid', [userId]))

/**
 * `(aco_foreign_key, permission_type)` of every item of kind `aco` the user can read, with the
 * user's highest level: join it to a list to filter and to know the level of each row.
 */
export const readableBy = (knex: Knex, userId: string, aco: Aco) =>
  knex
    .select('permissions.aco_foreign_key')
    .max('permissions.type as permission_type')
    .from('permissions')
    .where('permissions.aco', aco)
    .whereIn('permissions.aro_foreign_key', arosOf(knex, userId))
    .groupBy('permissions.aco_foreign_key')

/**
 * The permission row that gives the user their level on each readable item (`contain[permission]`):
 * the highest, a direct one before a group's when they tie.
 */
export const highestPermissionRows = (knex: Knex, userId: string, aco: Aco) =>
  knex('permissions')
    .distinctOn('permissions.aco_foreign_key')
    .select('permissions.*')
    .where('permissions.aco', aco)
    // The caller's few aros as an array read the index on `aro_foreign_key`, where `in` would
    // hash-join every permission of the organisation (a seq scan of 500,000 rows for 10,000).
    .whereRaw('permissions.aro_foreign_key = any(array(?))', [arosOf(knex, userId)])
    .orderBy([
      { column: 'permissions.aco_foreign_key' },
      { column: 'permissions.type', order: 'desc' },
      { column: knex.raw("permissions.aro = 'User'") as never, order: 'desc' },
      { column: 'permissions.created' },
    ])

/** The user's level on one item, or undefined when they have none. */
export const effectivePermission = async (
  em: EntityManager,
  userId: string,
  aco: Aco,
  id: string,
): Promise<number | undefined> => {
  const [row] = await selectRows<{ permission_type: number | null }>(em, (knex) =>
    knex
      .max('permissions.type as permission_type')
      .from('permissions')
      .where({ 'permissions.aco': aco, 'permissions.aco_foreign_key': id })
      .whereIn('permissions.aro_foreign_key', arosOf(knex, userId)),
  )
  return row?.permission_type ?? undefined
}

export interface AccessRefusal {
  /** Model named in the 404 message: `The <model> does not exist.` */
  model: string
  /** 403 message when the caller can see the item but lacks the level. */
  forbidden: string
}

/**
 * Returns the user's level on the item, or refuses: 404 when they cannot even read it (they
 * may not learn it exists), 403 when they can read it but need more.
 */
export const requireAccess = async (
  em: EntityManager,
  userId: string,
  aco: Aco,
  id: string,
  level: Level,
  refusal: AccessRefusal,
): Promise<number> => {
  const found = await effectivePermission(em, userId, aco, id)
  if (found === undefined) throw notFound(refusal.model)
  if (found < level) throw new HttpError(403, refusal.forbidden)
  return found
}
