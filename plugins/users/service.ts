// Users through the ORM: loading a user with profile, key and role, the wire shape passbolt
// clients expect (fact sheet §8.2), creation and activation.
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { formatDate } from '../../api/envelope.ts'
import { RoleSchema } from '../roles/entities/Role.ts'
import { type Gpgkey, GpgkeySchema } from './entities/Gpgkey.ts'
import { type Profile, ProfileSchema } from './entities/Profile.ts'
import { type User, UserSchema } from './entities/User.ts'

export interface UserBundle {
  user: User
  profile: Profile | null
  gpgkey: Gpgkey | null
  role: { id: string; name: string; description: string; created: Date; modified: Date }
}

export const loadUser = async (em: EntityManager, id: string): Promise<UserBundle | undefined> => {
  const user = await em.findOne(UserSchema, { id })
  if (!user) return undefined
  const [profile, gpgkey, role] = await Promise.all([
    em.findOne(ProfileSchema, { userId: id }),
    em.findOne(GpgkeySchema, { userId: id, deleted: false }),
    em.findOneOrFail(RoleSchema, { id: user.roleId }),
  ])
  return { user, profile, gpgkey, role }
}

/** Active, not deleted, not suspended: allowed to sign in and to stay signed in. */
export const canSignIn = (user: User) =>
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

const avatarUrls = (appUrl: string) => ({
  medium: `${appUrl}img/avatar/user_medium.png`,
  small: `${appUrl}img/avatar/user.png`,
})

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

export const serializeUser = ({ user, profile, gpgkey, role }: UserBundle, appUrl: string) => ({
  id: user.id,
  role_id: user.roleId,
  username: user.username,
  active: user.active,
  deleted: user.deleted,
  disabled: formatDate(user.disabled),
  created: formatDate(user.created),
  modified: formatDate(user.modified),
  last_logged_in: formatDate(user.lastLoggedIn),
  profile: profile && {
    id: profile.id,
    user_id: profile.userId,
    first_name: profile.firstName,
    last_name: profile.lastName,
    created: formatDate(profile.created),
    modified: formatDate(profile.modified),
    avatar: { url: avatarUrls(appUrl) },
  },
  gpgkey: gpgkey && serializeGpgkey(gpgkey),
  groups_users: [],
  role: {
    id: role.id,
    name: role.name,
    description: role.description,
    created: formatDate(role.created),
    modified: formatDate(role.modified),
  },
})

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

/** The user and role name, enough to authorise a request. */
export const loadAuthUser = async (em: EntityManager, id: string) => {
  const user = await em.findOne(UserSchema, { id })
  if (!user) return undefined
  const role = await em.findOne(RoleSchema, { id: user.roleId })
  return role ? { user, role: role.name as 'admin' | 'user' | 'guest' } : undefined
}
