// Who can reach an item: the users holding a permission on it, directly or through a live group.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import { selectRows } from '../../api/orm.ts'
import type { Aco } from './levels.ts'

/** `user_id` of every user who can read the item. */
export const usersWithAccessQuery = (knex: Knex, aco: Aco, id: string) =>
  knex
    .select('permissions.aro_foreign_key as user_id')
    .from('permissions')
    .where({ 'permissions.aco': aco, 'permissions.aco_foreign_key': id, 'permissions.aro': 'User' })
    .union((union) =>
      union
        .select('group_members.user_id')
        .from('permissions')
        .join('group_members', 'group_members.group_id', 'permissions.aro_foreign_key')
        .join('group_records', 'group_records.id', 'group_members.group_id')
        .where({
          'permissions.aco': aco,
          'permissions.aco_foreign_key': id,
          'permissions.aro': 'Group',
          'group_records.deleted': false,
        }),
    )

export const usersWithAccess = async (em: EntityManager, aco: Aco, id: string) =>
  (await selectRows<{ user_id: string }>(em, (knex) => usersWithAccessQuery(knex, aco, id))).map(
    (row) => row.user_id,
  )
