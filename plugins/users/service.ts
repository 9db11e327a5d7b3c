// Users through the ORM: loading a user with profile, key and role, the wire shape passbolt
// clients expect, creation and activation.
import { randomUUID } from 'node:crypto'
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import { preparedQuery } from '../../api/db/prepared.ts'
import { formatDate, formatTimestamp } from '../../api/envelope.ts'
import { selectRows, toDate } from '../../api/orm.ts'
import { type AvatarColumns, avatarJson, joinAvatar } from '../avatars/index.ts'
import { RoleSchema } from '../roles/index.ts'
import { type Gpgkey, GpgkeySchema } from './entities/Gpgkey.ts'
import { type Profile, ProfileSchema } from './entities/Profile.ts'
import { type User, UserSchema } from './entities/User.ts'
import { GPGKEY_COLUMNS } from './gpgkey-json.ts'

export interface GroupMembership {
  id: string
  group_id: string
  user_id: string
  is_admin: boolean
  created: string | null
}

export interface UserBundle {
  user: User
  profile: Profile | null
  gpgkey: Gpgkey | null
  role: { id: string; name: string; description: string; created: Date; modified: Date }
  /** The user's memberships of live groups, when they were read with the user. */
  groupsUsers?: GroupMembership[]
  /** The profile's avatar, when it was read with the user (else the default one is answered). */
  avatar?: AvatarColumns
}

/** The user's memberships of live groups as one JSON column (for a single user's view). */
const membershipsColumn = (knex: Knex) =>
  knex
    .select(
      knex.raw(
        `coalesce(json_agg(json_build_object('id', groups_users.id, 'group_id', groups_users.group_id,
          'user_id', groups_users.user_id, 'is_admin', groups_users.is_admin, 'created', groups_users.created)
          order by groups_users.created), '[]')`,
      ),
    )
    .from('groups_users')
    .join('groups', 'groups.id', 'groups_users.group_id')
    .where('groups_users.user_id', knex.ref('users.id'))
    .andWhere('groups.deleted', false)
    .as('memberships')

export const loadUser = async (em: EntityManager, id: string): Promise<UserBundle | undefined> => {
  const user = await em.findOne(UserSchema, { id })
  if (!user) return undefined
  // One after the other: inside a transaction they share one connection.
  const profile = await em.findOne(ProfileSchema, { userId: id })
  const gpgkey = await em.findOne(GpgkeySchema, { userId: id, deleted: false })
  const role = await em.findOneOrFail(RoleSchema, { id: user.roleId })
  return { user, profile, gpgkey, role }
}

type Row = Record<string, unknown>
const DATE_COLUMNS = new Set([
  'created',
  'modified',
  'disabled',
  'last_logged_in',
  'expires',
  'key_created',
])
const pick = (row: Row, prefix: string) =>
  Object.fromEntries(
    Object.entries(row)
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, value]) => {
        const name = key.slice(prefix.length)
        return [name, DATE_COLUMNS.has(name) ? toDate(value) : value]
      }),
  )

const columns = (table: string, alias: string, names: readonly string[]) =>
  names.map((name) => `${table}.${name} as ${alias}${name}`)

/** The user row with role, profile and live key; with their memberships when asked. */
const userViewQuery = (memberships: boolean) =>
  preparedQuery<Row>(1, (knex, id) => {
    const query = knex('users')
      .join('roles', 'roles.id', 'users.role_id')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .leftJoin('gpgkeys', (on) =>
        on.on('gpgkeys.user_id', 'users.id').andOnVal('gpgkeys.deleted', false),
      )
      .where('users.id', id)
      .limit(1)
      .select(
        ...columns('users', 'u_', [
          'id',
          'role_id',
          'username',
          'active',
          'deleted',
          'disabled',
          'last_logged_in',
          'created',
          'modified',
        ]),
        ...columns('roles', 'r_', ['id', 'name', 'description', 'created', 'modified']),
        ...columns('profiles', 'p_', [
          'id',
          'user_id',
          'first_name',
          'last_name',
          'created',
          'modified',
        ]),
        ...columns('gpgkeys', 'g_', GPGKEY_COLUMNS),
      )
    if (memberships) query.select(membershipsColumn(knex))
    joinAvatar(query)
    return query
  })

const selectUserView = userViewQuery(false)
const selectUserViewWithMemberships = userViewQuery(true)

/**
 * A user with profile, active key and role in one query, read-only (the view routes run this on
 * every call; `loadUser` gives managed entities for changes).
 */
export const readUser = async (
  em: EntityManager,
  id: string,
  options: { memberships?: boolean } = {},
): Promise<UserBundle | undefined> => {
  const [row] = await (options.memberships ? selectUserViewWithMemberships : selectUserView)(em, id)
  if (!row) return undefined
  const u = pick(row, 'u_')
  const p = pick(row, 'p_')
  const g = pick(row, 'g_')
  const memberships = row.memberships as GroupMembership[] | undefined
  return {
    avatar: row as unknown as AvatarColumns,
    ...(memberships
      ? {
          groupsUsers: memberships.map((membership) => ({
            ...membership,
            created: formatTimestamp(membership.created),
          })),
        }
      : {}),
    user: { ...u, roleId: u.role_id, lastLoggedIn: u.last_logged_in } as unknown as User,
    role: pick(row, 'r_') as UserBundle['role'],
    profile: p.id
      ? ({
          ...p,
          userId: p.user_id,
          firstName: p.first_name,
          lastName: p.last_name,
        } as unknown as Profile)
      : null,
    gpgkey: g.id
      ? ({
          ...g,
          userId: g.user_id,
          armoredKey: g.armored_key,
          keyId: g.key_id,
          keyCreated: g.key_created,
        } as unknown as Gpgkey)
      : null,
  }
}

/** Active, not deleted, not suspended: allowed to sign in and to stay signed in. */
export const canSignIn = (user: Pick<User, 'active' | 'deleted' | 'disabled'>) =>
  user.active && !user.deleted && (!user.disabled || user.disabled > new Date())

/** The user whose active key has this fingerprint, if any. */
export const findUserByFingerprint = async (em: EntityManager, fingerprint: string) => {
  const key = await em.findOne(GpgkeySchema, {
    fingerprint: fingerprint.toUpperCase(),
    deleted: false,
  })
  return key ? loadUser(em, key.userId) : undefined
}

export const findUserByUsername = (em: EntityManager, username: string) =>
  em.findOne(UserSchema, { username: username.toLowerCase(), deleted: false })

export const serializeGpgkey = (key: Gpgkey) => ({
  id: key.id,
  user_id: key.userId,
  armored_key: key.armoredKey,
  bits: key.bits,
  uid: key.uid,
  key_id: key.keyId,
  fingerprint: key.fingerprint,
  type: key.type,
  expires: formatDate(key.expires),
  key_created: formatDate(key.keyCreated),
  deleted: key.deleted,
  created: formatDate(key.created),
  modified: formatDate(key.modified),
})

/** Which relations a user answer carries; the view routes take them from `contain[...]`. */
export interface UserContain {
  profile?: boolean
  gpgkey?: boolean
  role?: boolean
}

const ALL: UserContain = { profile: true, gpgkey: true, role: true }

/**
 * The wire shape of a user; `groups_users` when the bundle was read with them, else it is
 * added by its loader (`attachGroupsUsers`).
 */
export const serializeUser = (
  { user, profile, gpgkey, role, groupsUsers, avatar }: UserBundle,
  appUrl: string,
  contain: UserContain = ALL,
) => ({
  id: user.id,
  role_id: user.roleId,
  username: user.username,
  active: user.active,
  deleted: user.deleted,
  disabled: formatDate(user.disabled),
  created: formatDate(user.created),
  modified: formatDate(user.modified),
  last_logged_in: formatDate(user.lastLoggedIn),
  ...(contain.profile
    ? {
        profile: profile && {
          id: profile.id,
          user_id: profile.userId,
          first_name: profile.firstName,
          last_name: profile.lastName,
          created: formatDate(profile.created),
          modified: formatDate(profile.modified),
          avatar: avatarJson(appUrl, avatar ?? {}),
        },
      }
    : {}),
  ...(contain.gpgkey ? { gpgkey: gpgkey && serializeGpgkey(gpgkey) } : {}),
  ...(groupsUsers ? { groups_users: groupsUsers } : {}),
  ...(contain.role
    ? {
        role: {
          id: role.id,
          name: role.name,
          description: role.description,
          created: formatDate(role.created),
          modified: formatDate(role.modified),
        },
      }
    : {}),
})

/** Sets `groups_users` on every user row, with one query for all of them. */
export const attachGroupsUsers = async (
  rows: { id: string; groups_users?: unknown }[],
  em: EntityManager,
) => {
  const memberships = await selectRows<{
    id: string
    group_id: string
    user_id: string
    is_admin: boolean
    created: string
  }>(em, (knex) =>
    knex('groups_users')
      .join('groups', 'groups.id', 'groups_users.group_id')
      .where('groups.deleted', false)
      .whereIn('groups_users.user_id', [...new Set(rows.map((row) => row.id))])
      .orderBy('groups_users.created')
      .select(
        'groups_users.id',
        'groups_users.group_id',
        'groups_users.user_id',
        'groups_users.is_admin',
        'groups_users.created',
      ),
  )
  const byUser = new Map<string, unknown[]>()
  for (const membership of memberships) {
    const list = byUser.get(membership.user_id) ?? []
    list.push({ ...membership, created: formatTimestamp(membership.created) })
    byUser.set(membership.user_id, list)
  }
  for (const row of rows) row.groups_users = byUser.get(row.id) ?? []
}

export interface NewUser {
  username: string
  firstName: string
  lastName: string
  role: 'admin' | 'user'
  createdBy?: string
}

export class UsernameTakenError extends Error {
  override name = 'UsernameTakenError'
}

/** Creates an inactive user with a profile, in one transaction. */
export const createUser = (em: EntityManager, input: NewUser) =>
  em.transactional(async (tx) => {
    const username = input.username.toLowerCase()
    if (await findUserByUsername(tx, username))
      throw new UsernameTakenError('The username is already in use.')
    const role = await tx.findOneOrFail(RoleSchema, { name: input.role })
    // The id is set now, not at flush, because the profile refers to it.
    const user = tx.create(UserSchema, {
      id: randomUUID(),
      roleId: role.id,
      username,
      active: false,
      deleted: false,
      createdBy: input.createdBy ?? null,
      modifiedBy: input.createdBy ?? null,
    } as User)
    // Foreign keys are plain columns here, so the user row goes in first.
    await tx.flush()
    tx.create(ProfileSchema, {
      userId: user.id,
      firstName: input.firstName,
      lastName: input.lastName,
    } as Profile)
    return user
  })

export const touchLastLoggedIn = (em: EntityManager, userId: string) =>
  em.nativeUpdate(UserSchema, { id: userId }, { lastLoggedIn: new Date() })
