// A user of the directory as one JSON document written by PostgreSQL as text, in passbolt's
// shape and date format: the wire shape lives here only (views parse it; long lists send it as
// it comes, which spares building and re-serialising thousands of objects).
import type { Knex } from '@mikro-orm/postgresql'
import { DOCUMENT } from '../../api/db/document-list.ts'
import {
  type JsonText,
  jsonConstant,
  jsonLiteral,
  jsonObjectText,
  jsonPlainString,
  jsonRaw,
  jsonString,
} from '../../api/json-text.ts'

/**
 * A timestamp column as the API writes dates (`2024-07-03T12:52:06+00:00`), or null: cut from
 * its text in the session's UTC, several times cheaper than `to_char` on long lists.
 */
export const isoDate = (knex: Knex, column: string) =>
  knex.raw(`replace(left(??::text, 19), ' ', 'T') || '+00:00'`, [column])

const uuid = (knex: Knex, column: string) =>
  jsonPlainString(knex, knex.ref(column), { notNull: true })

const text = (knex: Knex, column: string) => jsonString(knex, knex.ref(column))

/** A date column as `isoDate` writes it, in JSON text; `notNull` columns skip the null check. */
export const jsonDate = (knex: Knex, column: string, options: { notNull?: boolean } = {}) =>
  jsonPlainString(knex, isoDate(knex, column), options)

/** The object `value`, or `null` when `column` is null (its columns are then all null). */
const unlessNull = (knex: Knex, column: string, value: Knex.Raw): JsonText =>
  jsonRaw(knex.raw(`case when ?? is null then 'null' else ? end`, [column, value]))

const avatar = (knex: Knex, appUrl: string, source: string): JsonText => {
  // The URL's text around the id, escaped once here: `"…/avatars/view/` and `/medium.jpg"`.
  const view = (size: string): JsonText =>
    jsonRaw(
      knex.raw('?::text || ?? || ?::text', [
        JSON.stringify(`${appUrl}avatars/view/`).slice(0, -1),
        `${source}.avatar_id`,
        JSON.stringify(`/${size}.jpg`).slice(1),
      ]),
    )
  const defaults = jsonObjectText(knex, [
    [
      'url',
      jsonRaw(
        jsonObjectText(knex, [
          ['medium', jsonConstant(`${appUrl}img/avatar/user_medium.png`)],
          ['small', jsonConstant(`${appUrl}img/avatar/user.png`)],
        ]),
      ),
    ],
  ])
  const own = jsonObjectText(knex, [
    ['id', uuid(knex, `${source}.avatar_id`)],
    ['created', jsonDate(knex, `${source}.avatar_created`, { notNull: true })],
    ['modified', jsonDate(knex, `${source}.avatar_modified`, { notNull: true })],
    [
      'url',
      jsonRaw(
        jsonObjectText(knex, [
          ['medium', view('medium')],
          ['small', view('small')],
        ]),
      ),
    ],
  ])
  return jsonRaw(
    knex.raw('case when ?? is null then ? else ? end', [`${source}.avatar_id`, defaults, own]),
  )
}

export interface DocumentContain {
  profile?: boolean
  role?: boolean
  gpgkey?: boolean
  groups_users?: boolean
}

/**
 * The JSON object of each row of `source` (the directory's narrow columns: the user's, and
 * `profile_…` and `avatar_…` ones with the profile), joined to `gpgkeys` and `memberships` when
 * those are contained, as text.
 */
export const userObject = (
  knex: Knex,
  contain: DocumentContain,
  appUrl: string,
  source = 'page',
): Knex.Raw => {
  const column = (name: string) => `${source}.${name}`
  const fields: [string, JsonText][] = [
    ['id', uuid(knex, column('id'))],
    ['role_id', uuid(knex, column('role_id'))],
    ['username', text(knex, column('username'))],
    ['active', jsonLiteral(knex, knex.ref(column('active')), { notNull: true })],
    ['deleted', jsonLiteral(knex, knex.ref(column('deleted')), { notNull: true })],
    ['disabled', jsonDate(knex, column('disabled'))],
    ['created', jsonDate(knex, column('created'), { notNull: true })],
    ['modified', jsonDate(knex, column('modified'), { notNull: true })],
    ['last_logged_in', jsonDate(knex, column('last_logged_in'))],
  ]
  if (contain.profile)
    fields.push([
      'profile',
      unlessNull(
        knex,
        column('profile_id'),
        jsonObjectText(knex, [
          ['id', uuid(knex, column('profile_id'))],
          ['user_id', uuid(knex, column('id'))],
          ['first_name', text(knex, column('profile_first_name'))],
          ['last_name', text(knex, column('profile_last_name'))],
          ['created', jsonDate(knex, column('profile_created'), { notNull: true })],
          ['modified', jsonDate(knex, column('profile_modified'), { notNull: true })],
          ['avatar', avatar(knex, appUrl, source)],
        ]),
      ),
    ])
  if (contain.role)
    fields.push([
      'role',
      jsonRaw(
        jsonObjectText(knex, [
          ['id', uuid(knex, column('role_id'))],
          ['name', text(knex, column('role_name'))],
          ['description', text(knex, column('role_description'))],
          ['created', jsonDate(knex, column('role_created'))],
          ['modified', jsonDate(knex, column('role_modified'))],
        ]),
      ),
    ])
  if (contain.gpgkey)
    fields.push([
      'gpgkey',
      unlessNull(
        knex,
        'gpgkeys.id',
        // Kept ready by PostgreSQL (the users plugin's key documents migration).
        knex.raw('gpgkeys.document'),
      ),
    ])
  if (contain.groups_users)
    fields.push([
      'groups_users',
      jsonRaw(knex.raw(`coalesce(??, '[]')`, ['memberships.memberships'])),
    ])
  return jsonObjectText(knex, fields)
}

/**
 * Each membership of a user, as `groups_users` lists them, in text: for `string_agg` over the
 * user's rows of `group_members`.
 */
export const membershipText = (knex: Knex) =>
  jsonObjectText(knex, [
    ['id', uuid(knex, 'group_members.id')],
    ['group_id', uuid(knex, 'group_members.group_id')],
    ['user_id', uuid(knex, 'group_members.user_id')],
    ['is_admin', jsonLiteral(knex, knex.ref('group_members.is_admin'), { notNull: true })],
    ['created', jsonDate(knex, 'group_members.created', { notNull: true })],
  ])

/** The document of each row of `page`, as a text column `document`. */
export const userDocument = (knex: Knex, contain: DocumentContain, appUrl: string) =>
  knex.raw(`? as ${DOCUMENT}`, [userObject(knex, contain, appUrl)])
