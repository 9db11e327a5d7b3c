// A user of the directory as one JSON document written by PostgreSQL, in passbolt's shape and
// date format: the wire shape lives here only (views parse it; long lists send it as it comes,
// which spares building and re-serialising thousands of objects).
import type { Knex } from '@mikro-orm/postgresql'

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

const avatar = (knex: Knex, appUrl: string) => {
  const view = (size: string) =>
    knex.raw(`?::text || ?? || ?::text`, [
      `${appUrl}avatars/view/`,
      'page.avatar_id',
      `/${size}.jpg`,
    ])
  return knex.raw('case when ?? is null then ? else ? end', [
    'page.avatar_id',
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
      ['id', knex.ref('page.avatar_id')],
      ['created', isoDate(knex, 'page.avatar_created')],
      ['modified', isoDate(knex, 'page.avatar_modified')],
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
 * The document of each row of `page` (the directory's narrow columns), joined to `gpgkeys` and
 * `memberships` when those are contained, as a text column `document`.
 */
export const userDocument = (knex: Knex, contain: DocumentContain, appUrl: string) => {
  const fields: [string, Value][] = [
    ['id', knex.ref('page.id')],
    ['role_id', knex.ref('page.role_id')],
    ['username', knex.ref('page.username')],
    ['active', knex.ref('page.active')],
    ['deleted', knex.ref('page.deleted')],
    ['disabled', isoDate(knex, 'page.disabled')],
    ['created', isoDate(knex, 'page.created')],
    ['modified', isoDate(knex, 'page.modified')],
    ['last_logged_in', isoDate(knex, 'page.last_logged_in')],
  ]
  if (contain.profile)
    fields.push([
      'profile',
      unlessNull(
        knex,
        'page.profile_id',
        object(knex, [
          ['id', knex.ref('page.profile_id')],
          ['user_id', knex.ref('page.id')],
          ['first_name', knex.ref('page.profile_first_name')],
          ['last_name', knex.ref('page.profile_last_name')],
          ['created', isoDate(knex, 'page.profile_created')],
          ['modified', isoDate(knex, 'page.profile_modified')],
          ['avatar', avatar(knex, appUrl)],
        ]),
      ),
    ])
  if (contain.role)
    fields.push([
      'role',
      object(knex, [
        ['id', knex.ref('page.role_id')],
        ['name', knex.ref('page.role_name')],
        ['description', knex.ref('page.role_description')],
        ['created', isoDate(knex, 'page.role_created')],
        ['modified', isoDate(knex, 'page.role_modified')],
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
  return knex.raw('?::text as document', [object(knex, fields)])
}
