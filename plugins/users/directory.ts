// The user directory's one query: users with role, profile (and avatar), live key and group
// memberships joined in a single statement for the whole page, visible as passbolt shows them
// (no guests, no deleted users; non-administrators see active users only), filtered and
// ordered as the clients ask.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import type { AuthUser } from '../../api/auth/user.ts'
import { formatTimestamp } from '../../api/envelope.ts'
import { applyOrder, type Page, selectPage } from '../../api/pagination.ts'
import type { ParsedQuery } from '../../api/query.ts'
import { type AvatarColumns, avatarJson, joinAvatar } from '../avatars/index.ts'

/** Sortable `Model.field` names (the first is the default order) and their columns. */
export const SORTABLE = {
  'Users.username': 'users.username',
  'Users.created': 'users.created',
  'Users.modified': 'users.modified',
  'Users.last_logged_in': 'users.last_logged_in',
  'Profiles.first_name': 'profiles.first_name',
  'Profiles.last_name': 'profiles.last_name',
  'Profiles.created': 'profiles.created',
  'Profiles.modified': 'profiles.modified',
} as const

const USER = [
  'id',
  'role_id',
  'username',
  'active',
  'deleted',
  'disabled',
  'created',
  'modified',
  'last_logged_in',
]
const PROFILE = ['id', 'user_id', 'first_name', 'last_name', 'created', 'modified']
const ROLE = ['id', 'name', 'description', 'created', 'modified']
const GPGKEY = [
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
]
const GPGKEY_DATES = new Set(['expires', 'key_created', 'created', 'modified'])

type Row = Record<string, unknown> & AvatarColumns & { id: string }

/** A user's memberships of live groups as one JSON column of the user's row. */
const membershipsColumn = (knex: Knex) =>
  knex
    .select(
      knex.raw(
        `coalesce(json_agg(json_build_object('id', groups_users.id, 'group_id', groups_users.group_id,
          'user_id', groups_users.user_id, 'is_admin', groups_users.is_admin, 'created', groups_users.created)
          order by groups_users.created, groups_users.id), '[]')`,
      ),
    )
    .from('groups_users')
    .join('groups', 'groups.id', 'groups_users.group_id')
    .where('groups_users.user_id', knex.ref('users.id'))
    .andWhere('groups.deleted', false)
    .as('memberships')

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

export interface DirectoryRequest {
  user: AuthUser
  contain: Record<string, boolean>
  filter: Record<string, unknown>
}

/** The users query for this caller, contains and filters, without order or page. */
const directoryQuery = async (
  knex: Knex,
  em: EntityManager,
  app: AppContext,
  request: DirectoryRequest,
) => {
  const { user, contain, filter } = request
  const query = knex('users')
    .join('roles', 'roles.id', 'users.role_id')
    .leftJoin('profiles', 'profiles.user_id', 'users.id')
    .where('users.deleted', false)
    .whereNot('roles.name', 'guest')
    .select(USER.map((column) => `users.${column}`))
  if (user.role !== 'admin') query.where('users.active', true)
  else if (typeof filter['is-active'] === 'boolean')
    query.where('users.active', filter['is-active'])
  if (typeof filter['is-admin'] === 'boolean')
    query.where('roles.name', filter['is-admin'] ? '=' : '<>', 'admin')
  const search = (filter.search as string[] | undefined)?.[0]
  if (search) {
    const like = `%${escapeLike(search)}%`
    query.where((where) =>
      where
        .whereILike('users.username', like)
        .orWhereILike('profiles.first_name', like)
        .orWhereILike('profiles.last_name', like),
    )
  }
  const groups = filter['has-groups'] as string[] | undefined
  if (groups?.length)
    // Members of every group listed.
    query.whereIn(
      'users.id',
      knex('groups_users')
        .whereIn('group_id', [...new Set(groups)])
        .groupBy('user_id')
        .havingRaw('count(distinct group_id) = ?', [new Set(groups).size])
        .select('user_id'),
    )
  if (filter.ids) query.whereIn('users.id', filter.ids as string[])
  for (const [name, value] of Object.entries(filter))
    for (const plugin of app.plugins) {
      const apply = plugin.userDirectory?.filters?.[name]
      if (apply) await apply({ query, knex, value, user, em })
    }
  if (contain.profile) {
    query.select(PROFILE.map((column) => `profiles.${column} as profile_${column}`))
    joinAvatar(query)
  }
  if (contain.role) query.select(ROLE.map((column) => `roles.${column} as role_${column}`))
  if (contain.gpgkey)
    query
      .leftJoin('gpgkeys', (on) =>
        on.on('gpgkeys.user_id', 'users.id').andOnVal('gpgkeys.deleted', false),
      )
      .select(GPGKEY.map((column) => `gpgkeys.${column} as gpgkey_${column}`))
  if (contain.groups_users) query.select(membershipsColumn(knex))
  // Wrapped: an async function returning the builder itself would run it.
  return { query }
}

const prefixed = (row: Row, prefix: string, columns: string[]) =>
  Object.fromEntries(columns.map((column) => [column, row[`${prefix}${column}`]]))

/** A directory row as passbolt answers a user. */
const userJson = (row: Row, appUrl: string, contain: Record<string, boolean>) => {
  const json: Record<string, unknown> & { id: string } = {
    id: row.id,
    role_id: row.role_id,
    username: row.username,
    active: row.active,
    deleted: row.deleted,
    disabled: formatTimestamp(row.disabled as string | null),
    created: formatTimestamp(row.created as string),
    modified: formatTimestamp(row.modified as string),
    last_logged_in: formatTimestamp(row.last_logged_in as string | null),
  }
  if (contain.profile)
    json.profile = row.profile_id
      ? {
          ...prefixed(row, 'profile_', ['id', 'user_id', 'first_name', 'last_name']),
          created: formatTimestamp(row.profile_created as string),
          modified: formatTimestamp(row.profile_modified as string),
          avatar: avatarJson(appUrl, row),
        }
      : null
  if (contain.role)
    json.role = {
      ...prefixed(row, 'role_', ['id', 'name', 'description']),
      created: formatTimestamp(row.role_created as string),
      modified: formatTimestamp(row.role_modified as string),
    }
  if (contain.gpgkey)
    json.gpgkey = row.gpgkey_id
      ? Object.fromEntries(
          GPGKEY.map((column) => {
            const value = row[`gpgkey_${column}`]
            return [
              column,
              GPGKEY_DATES.has(column) ? formatTimestamp(value as string | null) : value,
            ]
          }),
        )
      : null
  if (contain.groups_users)
    json.groups_users = (row.memberships as { created: string }[]).map((membership) => ({
      ...membership,
      created: formatTimestamp(membership.created),
    }))
  return json
}

export type UserJson = ReturnType<typeof userJson>

/** The page of users the caller may see that match the request. */
export const listUsers = async (
  em: EntityManager,
  app: AppContext,
  request: DirectoryRequest & Pick<ParsedQuery, 'page' | 'limit' | 'order'>,
): Promise<Page<UserJson>> => {
  const knex = em.getKnex()
  const { query } = await directoryQuery(knex, em, app, request)
  const page = await selectPage<Row>(em, request, () =>
    applyOrder(query.clone(), request.order, SORTABLE).orderBy('users.id'),
  )
  return {
    rows: page.rows.map((row) => userJson(row, app.config.appUrl, request.contain)),
    pagination: page.pagination,
  }
}

/** One user as the directory shows them to the caller, or undefined when hidden. */
export const viewUser = async (
  em: EntityManager,
  app: AppContext,
  request: DirectoryRequest & { id: string },
): Promise<UserJson | undefined> => {
  const page = await listUsers(em, app, {
    ...request,
    filter: { ids: [request.id] },
    page: 1,
    limit: 1,
    order: [],
  })
  return page.rows[0]
}
