// Users as other plugins embed them (a resource's creator, a permission's user): many at once,
// one query, built straight from the rows.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import { formatTimestamp } from '../../api/envelope.ts'
import { selectRows } from '../../api/orm.ts'
import type { ContainContext, ContainSpec } from '../../api/plugin.ts'
import { type AvatarColumns, avatarJson, joinAvatar } from '../avatars/index.ts'
import { GPGKEY_COLUMNS, type GpgkeyRow, gpgkeyJson } from './gpgkey-json.ts'
import { userObject } from './user-document.ts'

interface Row extends Partial<AvatarColumns> {
  id: string
  role_id: string
  username: string
  active: boolean
  deleted: boolean
  disabled: string | null
  created: string
  modified: string
  last_logged_in: string | null
  profile_id: string | null
  profile_first_name: string | null
  profile_last_name: string | null
  profile_created: string | null
  profile_modified: string | null
}

export interface EmbeddedUser {
  id: string
  role_id: string
  username: string
  active: boolean
  deleted: boolean
  disabled: string | null
  created: string | null
  modified: string | null
  last_logged_in: string | null
  profile?: {
    id: string
    user_id: string
    first_name: string
    last_name: string
    created: string | null
    modified: string | null
    avatar: ReturnType<typeof avatarJson>
  } | null
}

/**
 * The columns of an embedded user, with their profile's (`profile_*`) and avatar when asked: the
 * one query both the object path (`embeddedUsers`) and PostgreSQL's JSON path select from.
 */
const embeddedUserRows = (knex: Knex, profile: boolean) => {
  const query = knex('users').select(
    'users.id',
    'users.role_id',
    'users.username',
    'users.active',
    'users.deleted',
    'users.disabled',
    'users.created',
    'users.modified',
    'users.last_logged_in',
  )
  if (profile)
    joinAvatar(query.leftJoin('profiles', 'profiles.user_id', 'users.id')).select(
      ['id', 'first_name', 'last_name', 'created', 'modified'].map(
        (column) => `profiles.${column} as profile_${column}`,
      ),
    )
  return query
}

/** The users with these ids (deleted ones included: history still names them), by id. */
export const embeddedUsers = async (
  em: EntityManager,
  ids: Iterable<string>,
  options: { profile: boolean; appUrl: string },
): Promise<Map<string, EmbeddedUser>> => {
  const wanted = [...new Set(ids)]
  if (wanted.length === 0) return new Map()
  const rows = await selectRows<Row>(em, (knex) =>
    embeddedUserRows(knex, options.profile).whereIn('users.id', wanted),
  )
  return new Map(
    rows.map((row) => {
      const user: EmbeddedUser = {
        id: row.id,
        role_id: row.role_id,
        username: row.username,
        active: row.active,
        deleted: row.deleted,
        disabled: formatTimestamp(row.disabled),
        created: formatTimestamp(row.created),
        modified: formatTimestamp(row.modified),
        last_logged_in: formatTimestamp(row.last_logged_in),
      }
      if (options.profile)
        user.profile = row.profile_id
          ? {
              id: row.profile_id,
              user_id: row.id,
              first_name: row.profile_first_name!,
              last_name: row.profile_last_name!,
              created: formatTimestamp(row.profile_created),
              modified: formatTimestamp(row.profile_modified),
              avatar: avatarJson(options.appUrl, row),
            }
          : null
      return [row.id, user]
    }),
  )
}

/**
 * `(id, document)` of the users `ids` selects, each written as JSON by PostgreSQL in the shape
 * `embeddedUsers` gives (deleted users included): for lists whose rows PostgreSQL writes whole.
 * Each user is written once, however many rows embed them.
 */
export const embeddedUserDocuments = (
  knex: Knex,
  ids: Knex.QueryBuilder,
  options: { profile: boolean; appUrl: string },
) => {
  const users = embeddedUserRows(knex, options.profile).whereIn('users.id', ids)
  return knex
    .from(users.as('embedded'))
    .select(
      'embedded.id',
      knex.raw('? as document', [
        userObject(knex, { profile: options.profile }, options.appUrl, 'embedded'),
      ]),
    )
}

/** The live key of each of these users, by user id, as the API answers keys. */
export const gpgkeysOfUsers = async (em: EntityManager, userIds: string[]) => {
  const rows = await selectRows<GpgkeyRow>(em, (knex) =>
    knex('gpgkeys').whereIn('user_id', userIds).andWhere('deleted', false).select(GPGKEY_COLUMNS),
  )
  return new Map(rows.map((row) => [row.user_id, gpgkeyJson(row)]))
}

/**
 * `contain[creator]` or `contain[modifier]` of a list: the user each row's `created_by` or
 * `modified_by` names, with their profile when `contain[<field>.profile]` is asked too.
 */
export const embeddedUserContain = (
  field: 'creator' | 'modifier',
  source: 'created_by' | 'modified_by',
): ContainSpec => ({
  load: async (rows: Record<string, unknown>[], { em, app, contain }: ContainContext) => {
    const users = await embeddedUsers(
      em,
      rows.map((row) => row[source] as string).filter(Boolean),
      { profile: Boolean(contain[`${field}.profile`]), appUrl: app.config.appUrl },
    )
    for (const row of rows) row[field] = users.get(row[source] as string) ?? null
  },
})
