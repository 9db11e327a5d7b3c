// Permissions written as JSON by PostgreSQL, in the shapes `render.ts` and
// `caller-permission.ts` give, for lists whose rows PostgreSQL writes whole (so that tens of
// thousands of embedded permissions are neither parsed nor stringified by the server).
import type { Knex } from '@mikro-orm/postgresql'
import { embeddedUserDocuments, isoDate } from '../users/index.ts'
import type { Aco } from './levels.ts'

type Field = [string, Knex.Raw | Knex.Ref<string, Record<string, string>>]

const object = (knex: Knex, fields: Field[]) =>
  knex.raw(`json_build_object(${fields.map(() => '?::text, ?').join(', ')})`, fields.flat())

/**
 * The item's `permission` (its caller's highest) from the `p_` columns `joinCallerPermission`
 * added to the list row `source`, whose item id is `source.id`.
 */
export const callerPermissionObject = (knex: Knex, aco: Aco, source: string) =>
  object(knex, [
    ['id', knex.ref(`${source}.p_id`)],
    ['aco', knex.raw('?::text', [aco])],
    ['aco_foreign_key', knex.ref(`${source}.id`)],
    ['aro', knex.ref(`${source}.p_aro`)],
    ['aro_foreign_key', knex.ref(`${source}.p_aro_foreign_key`)],
    ['type', knex.ref(`${source}.p_type`)],
    ['created', isoDate(knex, `${source}.p_created`)],
    ['modified', isoDate(knex, `${source}.p_modified`)],
  ])

const permissionFields = (knex: Knex): Field[] =>
  (['id', 'aco', 'aco_foreign_key', 'aro', 'aro_foreign_key', 'type'] as const)
    .map((column): Field => [column, knex.ref(`permissions.${column}`)])
    .concat([
      ['created', isoDate(knex, 'permissions.created')],
      ['modified', isoDate(knex, 'permissions.modified')],
    ])

/** A group as `groupJson` answers it: `created_by` and `modified_by` only when set. */
const groupObject = (knex: Knex) =>
  knex.raw('json_strip_nulls(?)', [
    object(knex, [
      ['id', knex.ref('holder_groups.id')],
      ['name', knex.ref('holder_groups.name')],
      ['deleted', knex.ref('holder_groups.deleted')],
      ['created', isoDate(knex, 'holder_groups.created')],
      ['modified', isoDate(knex, 'holder_groups.modified')],
      ['created_by', knex.ref('holder_groups.created_by')],
      ['modified_by', knex.ref('holder_groups.modified_by')],
    ]),
  ])

/**
 * `(aco_foreign_key, permissions)`: every permission on the items `ids` selects, as one JSON
 * list per item in the order `permissionsOfItems` gives, each with its user (and profile) or
 * its group when asked, as `embedHolders` sets them.
 */
export const permissionsOfItemsDocuments = (
  knex: Knex,
  ids: Knex.QueryBuilder,
  options: { users?: 'profile'; groups?: boolean; appUrl: string },
) => {
  const query = knex('permissions').whereIn('permissions.aco_foreign_key', ids)
  const base = permissionFields(knex)
  const cases: string[] = []
  const bindings: Knex.RawBinding[] = []
  if (options.users) {
    query.leftJoin(
      embeddedUserDocuments(
        knex,
        knex('permissions')
          .whereIn('permissions.aco_foreign_key', ids.clone())
          .where('permissions.aro', 'User')
          .distinct('permissions.aro_foreign_key'),
        { profile: true, appUrl: options.appUrl },
      ).as('holder_users'),
      (on) =>
        on.on('holder_users.id', 'permissions.aro_foreign_key').andOnVal('permissions.aro', 'User'),
    )
    cases.push('when ?? is not null then ?')
    bindings.push(
      'holder_users.id',
      object(knex, [...base, ['user', knex.ref('holder_users.document')]]),
    )
  }
  if (options.groups) {
    query.leftJoin('group_records as holder_groups', (on) =>
      on.on('holder_groups.id', 'permissions.aro_foreign_key').andOnVal('permissions.aro', 'Group'),
    )
    cases.push('when ?? is not null then ?')
    bindings.push('holder_groups.id', object(knex, [...base, ['group', groupObject(knex)]]))
  }
  const permission =
    cases.length === 0
      ? object(knex, base)
      : knex.raw(`case ${cases.join(' ')} else ? end`, [...bindings, object(knex, base)])
  return query
    .groupBy('permissions.aco_foreign_key')
    .select(
      'permissions.aco_foreign_key',
      knex.raw('json_agg(? order by permissions.created, permissions.id) as permissions', [
        permission,
      ]),
    )
}
