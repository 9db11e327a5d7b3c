// Users through the ORM: loading a user with profile, key and role, the wire shape passbolt
// clients expect, creation and activation.
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { runInTransaction } from '../../api/db/transaction.ts'
import { formatDate, formatTimestamp } from '../../api/envelope.ts'
import { selectRows } from '../../api/orm.ts'
import { type AvatarColumns, avatarJson } from '../avatars/index.ts'
import { RoleSchema } from '../roles/index.ts'
import { type Gpgkey, GpgkeySchema } from './entities/Gpgkey.ts'
import { type Profile, ProfileSchema } from './entities/Profile.ts'
import { type User, UserSchema } from './entities/User.ts'

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

export const loadUser = async (em: EntityManager, id: string): Promise<UserBundle | undefined> => {
  const user = await em.findOne(UserSchema, { id })
  if (!user) return undefined
  // One after the other: inside a transaction they share one connection.
  const profile = await em.findOne(ProfileSchema, { userId: id })
  const gpgkey = await em.findOne(GpgkeySchema, { userId: id, deleted: false })
  const role = await em.findOneOrFail(RoleSchema, { id: user.roleId })
  return { user, profile, gpgkey, role }
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
    knex('group_members')
      .join('group_records', 'group_records.id', 'group_members.group_id')
      .where('group_records.deleted', false)
      .whereIn('group_members.user_id', [...new Set(rows.map((row) => row.id))])
      .orderBy('group_members.created')
      .select(
        'group_members.id',
        'group_members.group_id',
        'group_members.user_id',
        'group_members.is_admin',
        'group_members.created',
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
  /** A role's name: `admin`, `user` or a custom role. */
  role: string
  createdBy?: string
}

export class UsernameTakenError extends Error {
  override name = 'UsernameTakenError'
}

/** Creates an inactive user with a profile, in one transaction. */
export const createUser = (em: EntityManager, input: NewUser) =>
  runInTransaction(em, async (tx) => {
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
