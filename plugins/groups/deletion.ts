// The groups' part in deleting a user or a group. A user who alone manages a group with other
// members blocks their deletion (listed with its members for the administrator); otherwise
// the groups they were the only member of go with them, and their memberships go. A deleted
// group loses its members and its remaining permissions and is marked deleted.

import type { EntityManager } from '@mikro-orm/postgresql'
import { badRequest } from '../../api/errors.ts'
import { executeStatement, selectRows } from '../../api/orm.ts'
import { isUuid } from '../../api/uuid.ts'
import type { DeletionHooks } from '../users/index.ts'
import { selectGroups } from './query.ts'

/** Live groups where the user is the only manager and someone else is a member. */
const soleManagedNonEmpty = async (em: EntityManager, userId: string) =>
  (
    await selectRows<{ group_id: string }>(em, (knex) =>
      knex('groups_users as mine')
        .join('groups', 'groups.id', 'mine.group_id')
        .where({ 'mine.user_id': userId, 'mine.is_admin': true, 'groups.deleted': false })
        .whereNotExists((other) =>
          other
            .select(knex.raw('1'))
            .from('groups_users as manager')
            .whereRaw('manager.group_id = mine.group_id')
            .where('manager.is_admin', true)
            .whereNot('manager.user_id', userId),
        )
        .whereExists((other) =>
          other
            .select(knex.raw('1'))
            .from('groups_users as member')
            .whereRaw('member.group_id = mine.group_id')
            .whereNot('member.user_id', userId),
        )
        .select('mine.group_id'),
    )
  ).map((row) => row.group_id)

export const groupDeletion: DeletionHooks = {
  blockers: async (em, subject, app): Promise<Record<string, Record<string, unknown[]>>> => {
    if (subject.kind !== 'User') return {}
    const ids = await soleManagedNonEmpty(em, subject.id)
    if (ids.length === 0) return {}
    const groups = await selectGroups(em, {
      filters: { ids },
      contain: { groups_users: true, 'groups_users.user': true, 'groups_users.user.profile': true },
      callerId: subject.id,
      appUrl: app.config.appUrl,
    })
    return { groups: { sole_manager: groups } }
  },
  // passbolt's `transfer.managers`: memberships made manager, provided their groups are exactly
  // the ones the user alone manages (the rest of the transfer is the permissions plugin's).
  transfer: async (em, subject, transfer) => {
    const managers = transfer.managers ?? []
    if (subject.kind !== 'User' || managers.length === 0) return
    if (!managers.every((manager) => isUuid(manager.id)))
      throw badRequest('The groups users identifiers must be valid UUID.')
    const blocking = (await soleManagedNonEmpty(em, subject.id)).sort()
    const named = [...new Set(managers.map((m) => String(m.group_id).toLowerCase()))].sort()
    if (named.join() !== blocking.join()) throw badRequest('The transfer is not authorized.')
    await executeStatement(em, (knex) =>
      knex('groups_users')
        .whereIn(
          'id',
          managers.map((manager) => manager.id.toLowerCase()),
        )
        .whereIn('group_id', blocking)
        .update({ is_admin: true }),
    )
  },
  cleanup: async (em, subject, _app, actorId) => {
    const now = new Date()
    if (subject.kind === 'Group') {
      await executeStatement(em, (knex) =>
        knex('permissions').where('aro_foreign_key', subject.id).delete(),
      )
      await executeStatement(em, (knex) =>
        knex('groups_users').where('group_id', subject.id).delete(),
      )
      await executeStatement(em, (knex) =>
        knex('groups')
          .where('id', subject.id)
          .update({ deleted: true, modified: now, modified_by: actorId ?? null }),
      )
      return
    }
    // Groups with no one left are not kept (the resources' cleanup already took what only
    // they could reach).
    const alone = (
      await selectRows<{ group_id: string }>(em, (knex) =>
        knex('groups_users as mine')
          .where('mine.user_id', subject.id)
          .whereNotExists((other) =>
            other
              .select(knex.raw('1'))
              .from('groups_users as member')
              .whereRaw('member.group_id = mine.group_id')
              .whereNot('member.user_id', subject.id),
          )
          .select('mine.group_id'),
      )
    ).map((row) => row.group_id)
    if (alone.length) {
      await executeStatement(em, (knex) =>
        knex('permissions').whereIn('aro_foreign_key', alone).delete(),
      )
      await executeStatement(em, (knex) =>
        knex('groups')
          .whereIn('id', alone)
          .update({ deleted: true, modified: now, modified_by: actorId ?? null }),
      )
    }
    await executeStatement(em, (knex) => knex('groups_users').where('user_id', subject.id).delete())
  },
}
