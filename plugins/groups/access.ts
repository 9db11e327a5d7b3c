// What a membership change does to access: which of the affected users reach which items the
// group holds permissions on, read before and after the change, and the difference announced
// item by item through the permissions plugin (folder trees, favorites, tags follow it).
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { selectSql } from '../../api/orm.ts'
import { announceAccessChange } from '../permissions/index.ts'

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
  const rows = await selectSql<{ aco: Aco; item: string; user_id: string }>(
    em,
    `select distinct p.aco, p.aco_foreign_key as item, coalesce(gu.user_id, p.aro_foreign_key) as user_id
     from permissions p
     left join groups_users gu on p.aro = 'Group' and gu.group_id = p.aro_foreign_key
     left join groups g on g.id = gu.group_id
     where p.aco_foreign_key in (${itemIds ? ':items' : 'select q.aco_foreign_key from permissions q where q.aro_foreign_key = :group'})
       and not exists (select 1 from resources r where r.id = p.aco_foreign_key and r.deleted)
       and ((p.aro = 'User' and p.aro_foreign_key in (:users))
         or (p.aro = 'Group' and not g.deleted and gu.user_id in (:users)))`,
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

/** Announces, item by item, who gained and who lost access between two readings. */
export const announceReachChange = async (
  em: EntityManager,
  app: AppContext,
  before: Reach,
  after: Reach,
) => {
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const [aco, id] = key.split('|') as [Aco, string]
    const was = before.get(key) ?? new Set()
    const is = after.get(key) ?? new Set()
    await announceAccessChange(em, app, {
      aco,
      id,
      gained: [...is].filter((user) => !was.has(user)),
      lost: [...was].filter((user) => !is.has(user)),
    })
  }
}
