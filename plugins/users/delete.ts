// Deleting a user, as passbolt does: refused while the user alone owns shared content or alone
// manages a group with other members (every plugin says what blocks it, through its deletion
// hooks), unless the request hands that ownership over; otherwise the user is soft-deleted and
// every plugin removes what it holds for them, all in the route's one transaction.
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import type { AuthUser } from '../../api/auth/user.ts'
import { lockRows } from '../../api/db/transaction.ts'
import { badRequest, HttpError } from '../../api/errors.ts'
import { executeStatement, selectRows } from '../../api/orm.ts'
import { keepAnAdministrator } from './admins.ts'
import {
  cleanUpDeletion,
  type DeletionBlockers,
  type DeletionTransfer,
  deletionBlockers,
  hasBlockers,
  transferOnDeletion,
} from './extensions.ts'
import { messages } from './messages.ts'

interface Target {
  id: string
  role: string
  active: boolean
  disabled: string | null
}

/** The user to delete, locked; 400 for the caller themselves, 404 when gone. */
const findTarget = async (em: EntityManager, caller: AuthUser, id: string) => {
  if (id === caller.id) throw badRequest(messages.deleteSelf)
  await lockRows(em, 'users', [id])
  const [target] = await selectRows<Target>(em, (knex) =>
    knex('users')
      .join('roles', 'roles.id', 'users.role_id')
      .where({ 'users.id': id, 'users.deleted': false })
      .select('users.id', 'roles.name as role', 'users.active', 'users.disabled'),
  )
  if (!target) throw new HttpError(404, messages.deleteNotFound)
  return target
}

/** passbolt's refusal: the reasons in its message, the items under `errors`. */
const refusal = (blockers: DeletionBlockers) => {
  let message: string = messages.cannotDelete
  if (blockers.groups) message += ` ${messages.soleManager}`
  if (blockers.resources || blockers.folders) message += ` ${messages.soleOwner}`
  return badRequest(message, { errors: blockers })
}

/**
 * Checks the deletion (and, unless `dryRun`, carries it out): ownership handed over first, then
 * every plugin's blockers, then every plugin's cleanup and the soft delete.
 */
export const deleteUser = async (
  em: EntityManager,
  app: AppContext,
  caller: AuthUser,
  id: string,
  options: { dryRun: boolean; transfer?: DeletionTransfer },
) => {
  const target = await findTarget(em, caller, id)
  const activeAdmin =
    target.role === 'admin' &&
    target.active &&
    (target.disabled === null || new Date(target.disabled) > new Date())
  await keepAnAdministrator(em, { id, isActiveAdmin: activeAdmin }, 'id')
  const subject = { kind: 'User', id } as const
  if (options.transfer) await transferOnDeletion(em, app, subject, options.transfer, caller.id)
  const blockers = await deletionBlockers(em, app, subject)
  if (hasBlockers(blockers)) throw refusal(blockers)
  if (options.dryRun) return
  await cleanUpDeletion(em, app, subject, caller.id)
  const now = new Date()
  await executeStatement(em, (knex) =>
    knex('gpgkeys').where('user_id', id).update({ deleted: true, modified: now }),
  )
  await executeStatement(em, (knex) =>
    knex('users').where('id', id).update({ deleted: true, modified: now, modified_by: caller.id }),
  )
}
