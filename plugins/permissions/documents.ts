// Permissions written as JSON by PostgreSQL, in the shapes `render.ts` and
// `caller-permission.ts` give, for lists whose rows PostgreSQL writes whole (so that tens of
// thousands of embedded permissions are neither parsed nor stringified by the server).
import type { Knex } from '@mikro-orm/postgresql'
import {
  type JsonText,
  jsonConstant,
  jsonLiteral,
  jsonObjectText,
  jsonPlainString,
  jsonRaw,
  jsonString,
} from '../../api/json-text.ts'
import { embeddedUserDocuments, isoDate, jsonDate } from '../users/index.ts'
import type { Aco } from './levels.ts'

type Field = [string, Knex.Raw | Knex.Ref<string, Record<string, string>>]

const object = (knex: Knex, fields: Field[]) =>
  knex.raw(`json_build_object(${fields.map(() => '?::text, ?').join(', ')})`, fields.flat())

/**
 * The item's `permission` (its caller's highest) from the `p_` columns `joinCallerPermission`
 * added to the list row `source`, whose item id is `source.id`, as JSON text.
 */
export const callerPermissionObject = (knex: Knex, aco: Aco, source: string) =>
  jsonObjectText(knex, [
    ['id', jsonPlainString(knex, knex.ref(`${source}.p_id`), { notNull: true })],
    ['aco', jsonConstant(aco)],
    ['aco_foreign_key', jsonPlainString(knex, knex.ref(`${source}.id`), { notNull: true })],
    ['aro', jsonString(knex, knex.ref(`${source}.p_aro`))],
    [
      'aro_foreign_key',
      jsonPlainString(knex, knex.ref(`${source}.p_aro_foreign_key`), { notNull: true }),
    ],
    ['type', jsonLiteral(knex, knex.ref(`${source}.p_type`), { notNull: true })],
    ['created', jsonDate(knex, `${source}.p_created`, { notNull: true })],
    ['modified', jsonDate(knex, `${source}.p_modified`, { notNull: true })],
  ])

const permissionFields = (knex: Knex): [string, JsonText][] => {
  const uuid = (column: string) =>
    jsonPlainString(knex, knex.ref(`permissions.${column}`), { notNull: true })
  const date = (column: string) => jsonDate(knex, `permissions.${column}`, { notNull: true })
  return [
    ['id', uuid('id')],
    ['aco', jsonString(knex, knex.ref('permissions.aco'))],
    ['aco_foreign_key', uuid('aco_foreign_key')],
    ['aro', jsonString(knex, knex.ref('permissions.aro'))],
    ['aro_foreign_key', uuid('aro_foreign_key')],
    ['type', jsonLiteral(knex, knex.ref('permissions.type'), { notNull: true })],
    ['created', date('created')],
    ['modified', date('modified')],
  ]
}

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
 * text list per item in the order `permissionsOfItems` gives, each with its user (and profile) or
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
    const users = embeddedUserDocuments(
      knex,
      knex('permissions')
        .whereIn('permissions.aco_foreign_key', ids.clone())
        .where('permissions.aro', 'User')
        .distinct('permissions.aro_foreign_key'),
      { profile: true, appUrl: options.appUrl },
    )
    query.leftJoin(
      // Each user written once, not once a permission they hold: `offset 0` keeps PostgreSQL
      // from folding the subquery into the join, which would write the user again for every
      // row (and sort every copy).
      knex.raw('(? offset 0) as holder_users', [users]),
      (on) =>
        on.on('holder_users.id', 'permissions.aro_foreign_key').andOnVal('permissions.aro', 'User'),
    )
    cases.push('when ?? is not null then ?')
    bindings.push(
      'holder_users.id',
      jsonObjectText(knex, [...base, ['user', jsonRaw(knex.raw('holder_users.document::text'))]]),
    )
  }
  if (options.groups) {
    query.leftJoin('group_records as holder_groups', (on) =>
      on.on('holder_groups.id', 'permissions.aro_foreign_key').andOnVal('permissions.aro', 'Group'),
    )
    cases.push('when ?? is not null then ?')
    bindings.push(
      'holder_groups.id',
      jsonObjectText(knex, [
        ...base,
        ['group', jsonRaw(knex.raw('(?)::text', [groupObject(knex)]))],
      ]),
    )
  }
  const permission =
    cases.length === 0
      ? jsonObjectText(knex, base)
      : knex.raw(`case ${cases.join(' ')} else ? end`, [...bindings, jsonObjectText(knex, base)])
  return query
    .groupBy('permissions.aco_foreign_key')
    .select(
      'permissions.aco_foreign_key',
      knex.raw(
        `'[' || string_agg(?, ',' order by permissions.created, permissions.id) || ']' as permissions`,
        [permission],
      ),
    )
}
