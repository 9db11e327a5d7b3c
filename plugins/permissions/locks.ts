// The locks every change of who reaches an item takes, so that resource updates and deletions,
// shares, moves and group membership changes run one after the other where they meet: the
// item's own row (by the route's policy) and, shared, the groups holding permissions on it. A
// group update or deletion holds its group's row for update, so it waits for them, and they
// for it; each then reads who has access only once the other has committed.
import type { EntityManager } from '@mikro-orm/postgresql'
import { lockRows } from '../../api/db/transaction.ts'
import { selectRows } from '../../api/orm.ts'
import type { Aco } from './levels.ts'

/**
 * Share-locks the groups holding permissions on these items (the items' permissions only
 * change under the items' own locks, which the caller holds). Returns the groups' ids.
 */
export const lockGroupsReaching = async (
  em: EntityManager,
  aco: Aco,
  itemIds: readonly string[],
): Promise<string[]> => {
  if (itemIds.length === 0) return []
  const rows = await selectRows<{ id: string }>(em, (knex) =>
    knex('permissions')
      .distinct('aro_foreign_key as id')
      .where({ aco, aro: 'Group' })
      .whereIn('aco_foreign_key', [...itemIds]),
  )
  return lockGroups(
    em,
    rows.map((row) => row.id),
  )
}

/** Share-locks these groups (see `lockGroupsReaching`). */
export const lockGroups = async (em: EntityManager, groupIds: readonly string[]) => {
  await lockRows(em, 'groups', groupIds, 'share')
  return [...groupIds]
}
