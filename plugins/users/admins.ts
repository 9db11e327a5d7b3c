// The organisation keeps at least one active administrator. Every change that could remove one
// (a demotion, a suspension, a deletion) first locks the administrator role's row, so such
// changes run one after the other and each counts the administrators the previous one left.
import type { EntityManager } from '@mikro-orm/postgresql'
import { lockRows } from '../../api/db/transaction.ts'
import { badRequest } from '../../api/errors.ts'
import { selectRows } from '../../api/orm.ts'
import { messages } from './messages.ts'

const activeAdminsOtherThan = async (em: EntityManager, userId: string) => {
  const [row] = await selectRows<{ count: string }>(em, (knex) =>
    knex('users')
      .join('roles', 'roles.id', 'users.role_id')
      .where({ 'roles.name': 'admin', 'users.active': true, 'users.deleted': false })
      .whereNot('users.id', userId)
      .where((where) =>
        where.whereNull('users.disabled').orWhere('users.disabled', '>', new Date()),
      )
      .count({ count: '*' }),
  )
  return Number(row.count)
}

/** The usernames of the active administrators, e.g. to tell them about an attack. */
export const activeAdminUsernames = async (em: EntityManager) =>
  (
    await selectRows<{ username: string }>(em, (knex) =>
      knex('users')
        .join('roles', 'roles.id', 'users.role_id')
        .where({ 'roles.name': 'admin', 'users.active': true, 'users.deleted': false })
        .select('users.username'),
    )
  ).map((row) => row.username)

/** Whether the organisation's only account is an active administrator (a new organisation). */
export const onlyAccountIsActiveAdmin = async (em: EntityManager) => {
  const users = await selectRows<{ active: boolean; role: string }>(em, (knex) =>
    knex('users')
      .join('roles', 'roles.id', 'users.role_id')
      .select('users.active', 'roles.name as role')
      .limit(2),
  )
  return users.length === 1 && users[0].active && users[0].role === 'admin'
}

/** How many live accounts hold each of these roles. */
export const usersByRole = async (em: EntityManager, roleIds: readonly string[]) => {
  const counts = await selectRows<{ role_id: string; count: string }>(em, (knex) =>
    knex('users')
      .where('deleted', false)
      .whereIn('role_id', roleIds)
      .groupBy('role_id')
      .select('role_id', knex.raw('count(*) as count')),
  )
  return new Map(counts.map((row) => [row.role_id, Number(row.count)]))
}

/**
 * Refuses (400, keyed by `field`) when `userId` is an active administrator about to stop being
 * one and no other active administrator would remain. Must run inside the change's transaction.
 */
export const keepAnAdministrator = async (
  em: EntityManager,
  user: { id: string; isActiveAdmin: boolean },
  field: 'role_id' | 'disabled' | 'id',
) => {
  if (!user.isActiveAdmin) return
  const [admin] = await selectRows<{ id: string }>(em, (knex) =>
    knex('roles').where('name', 'admin').select('id'),
  )
  await lockRows(em, 'roles', [admin.id])
  if ((await activeAdminsOtherThan(em, user.id)) === 0)
    throw badRequest(messages.userValidation, { [field]: { lastAdmin: messages.lastAdmin } })
}
