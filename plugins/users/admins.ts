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
