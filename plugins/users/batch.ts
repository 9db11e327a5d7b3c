// Users as other plugins embed them (a resource's creator, a permission's user): many at once,
// one query, built straight from the rows.
import type { EntityManager } from '@mikro-orm/postgresql'
import { formatTimestamp } from '../../api/envelope.ts'
import { selectRows } from '../../api/orm.ts'
import type { ContainContext, ContainSpec } from '../../api/plugin.ts'
import { type AvatarColumns, avatarJson, joinAvatar } from '../avatars/index.ts'
import { GPGKEY_COLUMNS, type GpgkeyRow, gpgkeyJson } from './gpgkey-json.ts'

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
  p_id: string | null
  p_first_name: string | null
  p_last_name: string | null
  p_created: string | null
  p_modified: string | null
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

/** The users with these ids (deleted ones included: history still names them), by id. */
export const embeddedUsers = async (
  em: EntityManager,
  ids: Iterable<string>,
  options: { profile: boolean; appUrl: string },
): Promise<Map<string, EmbeddedUser>> => {
  const wanted = [...new Set(ids)]
  if (wanted.length === 0) return new Map()
  const rows = await selectRows<Row>(em, (knex) => {
    const query = knex('users')
      .whereIn('users.id', wanted)
      .select(
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
    if (options.profile)
      joinAvatar(query.leftJoin('profiles', 'profiles.user_id', 'users.id')).select(
        'profiles.id as p_id',
        'profiles.first_name as p_first_name',
        'profiles.last_name as p_last_name',
        'profiles.created as p_created',
        'profiles.modified as p_modified',
      )
    return query
  })
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
        user.profile = row.p_id
          ? {
              id: row.p_id,
              user_id: row.id,
              first_name: row.p_first_name!,
              last_name: row.p_last_name!,
              created: formatTimestamp(row.p_created),
              modified: formatTimestamp(row.p_modified),
              avatar: avatarJson(options.appUrl, row),
            }
          : null
      return [row.id, user]
    }),
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
