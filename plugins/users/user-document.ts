// A user of the directory as one JSON document written by PostgreSQL, in passbolt's shape and
// date format: the wire shape lives here only (views parse it; long lists send it as it comes,
// which spares building and re-serialising thousands of objects).
import type { Knex } from '@mikro-orm/postgresql'
import { DOCUMENT } from '../../api/db/document-list.ts'

type Value = Knex.Raw | Knex.Ref<string, Record<string, string>>

/**
 * A timestamp column as the API writes dates (`2024-07-03T12:52:06+00:00`), or null: cut from
 * its text in the session's UTC, several times cheaper than `to_char` on long lists.
 */
export const isoDate = (knex: Knex, column: string) =>
  knex.raw(`replace(left(??::text, 19), ' ', 'T') || '+00:00'`, [column])

const object = (knex: Knex, fields: [string, Value][]) =>
  knex.raw(`json_build_object(${fields.map(() => '?::text, ?').join(', ')})`, fields.flat())

/** `null` when `column` is null, else `value`. */
const unlessNull = (knex: Knex, column: string, value: Knex.Raw) =>
  knex.raw('case when ?? is null then null else ? end', [column, value])

const avatar = (knex: Knex, appUrl: string, source: string) => {
  const view = (size: string) =>
    knex.raw(`?::text || ?? || ?::text`, [
      `${appUrl}avatars/view/`,
      `${source}.avatar_id`,
      `/${size}.jpg`,
    ])
  return knex.raw('case when ?? is null then ? else ? end', [
    `${source}.avatar_id`,
    object(knex, [
      [
        'url',
        object(knex, [
          ['medium', knex.raw('?::text', [`${appUrl}img/avatar/user_medium.png`])],
          ['small', knex.raw('?::text', [`${appUrl}img/avatar/user.png`])],
        ]),
      ],
    ]),
    object(knex, [
      ['id', knex.ref(`${source}.avatar_id`)],
      ['created', isoDate(knex, `${source}.avatar_created`)],
      ['modified', isoDate(knex, `${source}.avatar_modified`)],
      [
        'url',
        object(knex, [
          ['medium', view('medium')],
          ['small', view('small')],
        ]),
      ],
    ]),
  ])
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
 * those are contained.
 */
export const userObject = (
  knex: Knex,
  contain: DocumentContain,
  appUrl: string,
  source = 'page',
): Knex.Raw => {
  const column = (name: string) => `${source}.${name}`
  const fields: [string, Value][] = [
    ['id', knex.ref(column('id'))],
    ['role_id', knex.ref(column('role_id'))],
    ['username', knex.ref(column('username'))],
    ['active', knex.ref(column('active'))],
    ['deleted', knex.ref(column('deleted'))],
    ['disabled', isoDate(knex, column('disabled'))],
    ['created', isoDate(knex, column('created'))],
    ['modified', isoDate(knex, column('modified'))],
    ['last_logged_in', isoDate(knex, column('last_logged_in'))],
  ]
  if (contain.profile)
    fields.push([
      'profile',
      unlessNull(
        knex,
        column('profile_id'),
        object(knex, [
          ['id', knex.ref(column('profile_id'))],
          ['user_id', knex.ref(column('id'))],
          ['first_name', knex.ref(column('profile_first_name'))],
          ['last_name', knex.ref(column('profile_last_name'))],
          ['created', isoDate(knex, column('profile_created'))],
          ['modified', isoDate(knex, column('profile_modified'))],
          ['avatar', avatar(knex, appUrl, source)],
        ]),
      ),
    ])
  if (contain.role)
    fields.push([
      'role',
      object(knex, [
        ['id', knex.ref(column('role_id'))],
        ['name', knex.ref(column('role_name'))],
        ['description', knex.ref(column('role_description'))],
        ['created', isoDate(knex, column('role_created'))],
        ['modified', isoDate(knex, column('role_modified'))],
      ]),
    ])
  if (contain.gpgkey)
    fields.push([
      'gpgkey',
      unlessNull(
        knex,
        'gpgkeys.id',
        object(knex, [
          ['id', knex.ref('gpgkeys.id')],
          ['user_id', knex.ref('gpgkeys.user_id')],
          ['armored_key', knex.ref('gpgkeys.armored_key')],
          ['bits', knex.ref('gpgkeys.bits')],
          ['uid', knex.ref('gpgkeys.uid')],
          ['key_id', knex.ref('gpgkeys.key_id')],
          ['fingerprint', knex.ref('gpgkeys.fingerprint')],
          ['type', knex.ref('gpgkeys.type')],
          ['expires', isoDate(knex, 'gpgkeys.expires')],
          ['key_created', isoDate(knex, 'gpgkeys.key_created')],
          ['deleted', knex.ref('gpgkeys.deleted')],
          ['created', isoDate(knex, 'gpgkeys.created')],
          ['modified', isoDate(knex, 'gpgkeys.modified')],
        ]),
      ),
    ])
  if (contain.groups_users)
    fields.push(['groups_users', knex.raw(`coalesce(??, '[]'::json)`, ['memberships.memberships'])])
  return object(knex, fields)
}

/** The document of each row of `page`, as a text column `document`. */
export const userDocument = (knex: Knex, contain: DocumentContain, appUrl: string) =>
  knex.raw(`?::text as ${DOCUMENT}`, [userObject(knex, contain, appUrl)])
