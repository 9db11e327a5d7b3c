// Editing a user, as passbolt's users edit does: the user changes their own first and last
// name and avatar; administrators also change the role and suspension (`disabled`) of others;
// the username never changes. The avatar is checked and resized before anything is written.
import type { EntityManager } from '@mikro-orm/postgresql'
import type { z } from 'zod'
import type { AppContext } from '../../api/app.ts'
import type { AuthUser } from '../../api/auth/user.ts'
import { lockRows } from '../../api/db/transaction.ts'
import { badRequest, forbidden, HttpError } from '../../api/errors.ts'
import { executeStatement, selectRows } from '../../api/orm.ts'
import { prepareAvatar, storeAvatar } from '../avatars/index.ts'
import { keepAnAdministrator } from './admins.ts'
import { messages } from './messages.ts'
import type { editBody } from './schemas.ts'

export type UserChanges = z.output<typeof editBody>

/** Refusals passbolt makes from the raw request before validating it. */
export const checkEditRequest = (caller: AuthUser, id: string, raw: unknown) => {
  if (caller.role !== 'admin' && id !== caller.id) throw forbidden(messages.notAuthorized)
  const body = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
  const fields = Object.keys(body).filter((key) => key !== 'id')
  if (fields.length === 0) throw badRequest(messages.noData)
  if (body.gpgkey !== undefined) throw badRequest(messages.gpgkeyUpdate)
  if (body.groups_users !== undefined || body.groups_user !== undefined)
    throw badRequest(messages.groupsUpdate)
  if (caller.role !== 'admin' && (body.role !== undefined || body.role_id !== undefined))
    throw forbidden(messages.roleForbidden)
}

interface Current {
  id: string
  role: string
  active: boolean
  disabled: string | null
  profile_id: string | null
}

const isSuspended = (disabled: Date | string | null) =>
  disabled !== null && new Date(disabled) <= new Date()

const invalid = (field: string, rule: string, message: string) =>
  badRequest(messages.userValidation, { [field]: { [rule]: message } })

/** Applies the changes the caller may make; returns nothing, the route answers the fresh view. */
export const editUser = async (
  em: EntityManager,
  app: AppContext,
  caller: AuthUser,
  id: string,
  changes: UserChanges,
) => {
  const avatar = changes.profile?.avatar
    ? await prepareAvatar(app, changes.profile.avatar.file)
    : undefined
  await lockRows(em, 'users', [id])
  const [current] = await selectRows<Current>(em, (knex) =>
    knex('users')
      .join('roles', 'roles.id', 'users.role_id')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .where({ 'users.id': id, 'users.deleted': false })
      .select('users.id', 'roles.name as role', 'users.active', 'users.disabled')
      .select('profiles.id as profile_id'),
  )
  if (!current) throw badRequest(messages.editNotFound)
  const admin = caller.role === 'admin'
  const userFields: Record<string, unknown> = {}
  let role = current.role
  if (admin && changes.role_id !== undefined) {
    // Held until the edit commits, so a custom role cannot be deleted while it is given.
    await lockRows(em, 'roles', [changes.role_id], 'share')
    const [target] = await selectRows<{ id: string; name: string }>(em, (knex) =>
      knex('roles').where('id', changes.role_id).whereNull('deleted').select('id', 'name'),
    )
    if (!target) throw invalid('role_id', 'role_exists', messages.roleUnknown)
    if (target.name === 'guest')
      throw invalid('role_id', 'isNotGuestRoleIdRule', messages.roleGuest)
    userFields.role_id = target.id
    role = target.name
  }
  // Administrators suspend others, never themselves (passbolt ignores the field then).
  let disabled = current.disabled
  if (admin && id !== caller.id && changes.disabled !== undefined) {
    userFields.disabled = changes.disabled
    disabled = changes.disabled?.toISOString() ?? null
  }
  const wasActiveAdmin =
    current.role === 'admin' && current.active && !isSuspended(current.disabled)
  const staysActiveAdmin = role === 'admin' && !isSuspended(disabled)
  if (wasActiveAdmin && !staysActiveAdmin)
    await keepAnAdministrator(
      em,
      { id, isActiveAdmin: true },
      role !== 'admin' ? 'role_id' : 'disabled',
    )
  const profileFields: Record<string, unknown> = {}
  if (changes.profile?.first_name !== undefined)
    profileFields.first_name = changes.profile.first_name
  if (changes.profile?.last_name !== undefined) profileFields.last_name = changes.profile.last_name
  const now = new Date()
  if (Object.keys(userFields).length > 0 || Object.keys(profileFields).length > 0 || avatar)
    await executeStatement(em, (knex) =>
      knex('users')
        .where('id', id)
        .update({ ...userFields, modified: now, modified_by: caller.id }),
    )
  if (!current.profile_id) {
    if (Object.keys(profileFields).length > 0 || avatar)
      throw new HttpError(500, 'The user has no profile.')
    return
  }
  if (Object.keys(profileFields).length > 0)
    await executeStatement(em, (knex) =>
      knex('profiles')
        .where('id', current.profile_id)
        .update({ ...profileFields, modified: now }),
    )
  if (avatar) await storeAvatar(em, current.profile_id, avatar)
}
