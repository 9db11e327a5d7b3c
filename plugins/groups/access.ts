// What a membership change does to access: which of the affected users reach which items the
// group holds permissions on, read before and after the change, and the difference announced
// item by item through the permissions plugin (folder trees, favorites, tags follow it).
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { selectSql } from '../../api/orm.ts'
import { announceAccessChanges } from '../permissions/index.ts'

type Aco = 'Resource' | 'Folder'

/** `aco|item` → users among `userIds` who reach that item of the group (directly or not). */
export type Reach = Map<string, Set<string>>

export const reachThroughGroup = async (
  em: EntityManager,
  groupId: string,
  userIds: readonly string[],
  /** The items to read, `aco|id` (after a deletion the group's own permissions are gone). */
  items?: readonly string[],
): Promise<Reach> => {
  const reach: Reach = new Map()
  if (userIds.length === 0 || items?.length === 0) return reach
  const itemIds = items?.map((key) => key.slice(key.indexOf('|') + 1))
  const itemList = itemIds
    ? ':items'
    : 'select q.aco_foreign_key from permissions q where q.aro_foreign_key = :group'
  // Direct permissions and those through live groups apart: each side filters on the users
  // first (a group of a thousand members is never expanded).
  const rows = await selectSql<{ aco: Aco; item: string; user_id: string }>(
    em,
    `select p.aco, p.aco_foreign_key as item, p.aro_foreign_key as user_id
     from permissions p
     where p.aro = 'User' and p.aro_foreign_key in (:users) and p.aco_foreign_key in (${itemList})
       and not exists (select 1 from resource_records r where r.id = p.aco_foreign_key and r.deleted)
     union
     select p.aco, p.aco_foreign_key, gu.user_id
     from groups_users gu
     join groups g on g.id = gu.group_id and not g.deleted
     join permissions p on p.aro_foreign_key = gu.group_id
     where gu.user_id in (:users) and p.aco_foreign_key in (${itemList})
       and not exists (select 1 from resource_records r where r.id = p.aco_foreign_key and r.deleted)`,
    itemIds ? { items: itemIds, users: [...userIds] } : { group: groupId, users: [...userIds] },
  )
  for (const row of rows) {
    const key = `${row.aco}|${row.item}`
    const users = reach.get(key) ?? new Set()
    users.add(row.user_id)
    reach.set(key, users)
  }
  return reach
}

/** Announces who gained and who lost access to each item between two readings. */
export const announceReachChange = (
  em: EntityManager,
  app: AppContext,
  before: Reach,
  after: Reach,
) =>
  announceAccessChanges(
    em,
    app,
    [...new Set([...before.keys(), ...after.keys()])].map((key) => {
      const [aco, id] = key.split('|') as [Aco, string]
      const was = before.get(key) ?? new Set()
      const is = after.get(key) ?? new Set()
      return {
        aco,
        id,
        gained: [...is].filter((user) => !was.has(user)),
        lost: [...was].filter((user) => !is.has(user)),
      }
    }),
  )
