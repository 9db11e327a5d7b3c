// Each user's own tree of folders and items (`folders_relations`): one row per user and item
// they can read, holding the item's parent folder in that user's tree. An item shared with a
// user lands at their root, unless someone already keeps it in a folder the user can see; a
// shared folder brings along, for its new readers, the items they can see inside it; a cycle
// a change would make in someone's tree is broken by moving the item to their root. Every
// change here is set-based: a thousand users gaining access cost a few statements.
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { executeStatement, selectRows, selectSql } from '../../api/orm.ts'

export type ItemModel = 'Resource' | 'Folder'

/** SQL: the user (an expression) can read the folder (an expression), directly or by a group. */
export const canReadFolderSql = (user: string, folder: string) =>
  `exists (select 1 from permissions rp where rp.aco = 'Folder' and rp.aco_foreign_key = ${folder}
    and (rp.aro_foreign_key = ${user} or rp.aro_foreign_key in (
      select rgu.group_id from group_members rgu join group_records rg on rg.id = rgu.group_id and not rg.deleted
      where rgu.user_id = ${user})))`

/** Puts a new item in its creator's tree, under `parentId` or at the root. */
export const placeItem = (
  em: EntityManager,
  item: { model: ItemModel; id: string },
  userId: string,
  parentId: string | null,
) =>
  executeStatement(em, (knex) =>
    knex('folders_relations')
      .insert({
        id: randomUUID(),
        foreign_model: item.model,
        foreign_id: item.id,
        user_id: userId,
        folder_parent_id: parentId,
        created: new Date(),
        modified: new Date(),
      })
      .onConflict(['user_id', 'foreign_id'])
      .merge(['folder_parent_id', 'modified']),
  )

/** The item's parent in the user's tree; undefined when the item is not in it. */
export const parentInTree = async (
  em: EntityManager,
  userId: string,
  itemId: string,
): Promise<{ parent: string | null; model: ItemModel } | undefined> => {
  const [row] = await selectRows<{ folder_parent_id: string | null; foreign_model: ItemModel }>(
    em,
    (knex) =>
      knex('folders_relations')
        .where({ user_id: userId, foreign_id: itemId })
        .select('folder_parent_id', 'foreign_model'),
  )
  return row ? { parent: row.folder_parent_id, model: row.foreign_model } : undefined
}

/** How many users have the item in their tree (1: a personal item). */
export const readersInTrees = async (em: EntityManager, itemId: string) => {
  const [{ count }] = await selectRows<{ count: string }>(em, (knex) =>
    knex('folders_relations').where('foreign_id', itemId).count({ count: '*' }),
  )
  return Number(count)
}

/**
 * Breaks the cycles going through the folder in the trees of these users (the folder ends up
 * among its own ancestors) by moving it to their root.
 */
const breakCycles = async (em: EntityManager, folderId: string, userIds: readonly string[]) => {
  if (userIds.length === 0) return
  await selectSql(
    em,
    `with recursive up(user_id, folder_id, depth) as (
       select fr.user_id, fr.folder_parent_id, 1 from folders_relations fr
       where fr.foreign_id = :folder and fr.user_id in (:users) and fr.folder_parent_id is not null
       union all
       select up.user_id, fr.folder_parent_id, up.depth + 1 from up
       join folders_relations fr on fr.user_id = up.user_id and fr.foreign_id = up.folder_id
       where fr.folder_parent_id is not null and up.depth < 10000 and up.folder_id <> :folder)
     update folders_relations set folder_parent_id = null, modified = now()
     where foreign_id = :folder and user_id in (select user_id from up where folder_id = :folder)
     returning user_id`,
    { folder: folderId, users: [...userIds] },
  )
}

/**
 * Adds the item to the trees of users who just gained access to it: at their root, then under
 * a folder they can see where other users keep it; a folder also gathers the items its new
 * readers see at their root that others keep inside it.
 */
export const addToTrees = async (
  em: EntityManager,
  item: { model: ItemModel; id: string },
  userIds: readonly string[],
) => {
  if (userIds.length === 0) return
  const now = new Date()
  await executeStatement(em, (knex) =>
    knex('folders_relations')
      .insert(
        userIds.map((userId) => ({
          id: randomUUID(),
          foreign_model: item.model,
          foreign_id: item.id,
          user_id: userId,
          folder_parent_id: null,
          created: now,
          modified: now,
        })),
      )
      .onConflict(['user_id', 'foreign_id'])
      .ignore(),
  )
  await selectSql(
    em,
    `with candidate as (
       select distinct on (fr.user_id) fr.user_id, other.folder_parent_id
       from folders_relations fr
       join folders_relations other on other.foreign_id = fr.foreign_id
         and other.user_id <> fr.user_id and other.folder_parent_id is not null
       where fr.foreign_id = :item and fr.user_id in (:users) and fr.folder_parent_id is null
         and ${canReadFolderSql('fr.user_id', 'other.folder_parent_id')}
       order by fr.user_id, other.folder_parent_id)
     update folders_relations fr set folder_parent_id = candidate.folder_parent_id, modified = now()
     from candidate where fr.user_id = candidate.user_id and fr.foreign_id = :item
     returning fr.id`,
    { item: item.id, users: [...userIds] },
  )
  if (item.model !== 'Folder') return
  await selectSql(
    em,
    `update folders_relations mine set folder_parent_id = :item, modified = now()
     where mine.user_id in (:users) and mine.folder_parent_id is null and mine.foreign_id <> :item
       and exists (select 1 from folders_relations other where other.foreign_id = mine.foreign_id
         and other.user_id <> mine.user_id and other.folder_parent_id = :item)
     returning mine.id`,
    { item: item.id, users: [...userIds] },
  )
  await breakCycles(em, item.id, userIds)
}

/** A resource and a user whose tree it enters or leaves. */
export interface TreeEntry {
  id: string
  userId: string
}

const asArrays = (entries: readonly TreeEntry[]) => ({
  items: `{${entries.map((entry) => entry.id).join(',')}}`,
  users: `{${entries.map((entry) => entry.userId).join(',')}}`,
})

/**
 * Adds resources to the trees of users who just gained access to them, as `addToTrees` does
 * for one item, with two statements for all of them.
 */
export const addResourcesToTrees = async (em: EntityManager, entries: readonly TreeEntry[]) => {
  if (entries.length === 0) return
  const now = new Date()
  await executeStatement(em, (knex) =>
    knex('folders_relations')
      .insert(
        entries.map((entry) => ({
          id: randomUUID(),
          foreign_model: 'Resource',
          foreign_id: entry.id,
          user_id: entry.userId,
          folder_parent_id: null,
          created: now,
          modified: now,
        })),
      )
      .onConflict(['user_id', 'foreign_id'])
      .ignore(),
  )
  await selectSql(
    em,
    `with entry as (
       select unnest(cast(:items as uuid[])) as item, unnest(cast(:users as uuid[])) as user_id),
     candidate as (
       select distinct on (fr.id) fr.id, other.folder_parent_id
       from entry
       join folders_relations fr on fr.foreign_id = entry.item and fr.user_id = entry.user_id
       join folders_relations other on other.foreign_id = fr.foreign_id
         and other.user_id <> fr.user_id and other.folder_parent_id is not null
       where fr.folder_parent_id is null
         and ${canReadFolderSql('fr.user_id', 'other.folder_parent_id')}
       order by fr.id, other.folder_parent_id)
     update folders_relations fr set folder_parent_id = candidate.folder_parent_id, modified = now()
     from candidate where fr.id = candidate.id
     returning fr.id`,
    asArrays(entries),
  )
}

/** Takes resources out of the trees of users who lost access to them, in one statement. */
export const removeResourcesFromTrees = async (
  em: EntityManager,
  entries: readonly TreeEntry[],
) => {
  if (entries.length === 0) return
  await selectSql(
    em,
    `delete from folders_relations fr
     using (select unnest(cast(:items as uuid[])) as item, unnest(cast(:users as uuid[])) as user_id) entry
     where fr.foreign_id = entry.item and fr.user_id = entry.user_id
     returning fr.id`,
    asArrays(entries),
  )
}

/** Takes the item out of the trees of users who lost access; a folder's content goes to their root. */
export const removeFromTrees = async (
  em: EntityManager,
  item: { model: ItemModel; id: string },
  userIds: readonly string[],
) => {
  if (userIds.length === 0) return
  await executeStatement(em, (knex) =>
    knex('folders_relations').where('foreign_id', item.id).whereIn('user_id', userIds).delete(),
  )
  if (item.model === 'Folder')
    await executeStatement(em, (knex) =>
      knex('folders_relations')
        .where('folder_parent_id', item.id)
        .whereIn('user_id', userIds)
        .update({ folder_parent_id: null, modified: new Date() }),
    )
}

/** Removes deleted items from every tree; what they held goes to the root of whoever sees it. */
export const removeEverywhere = async (em: EntityManager, ids: readonly string[]) => {
  if (ids.length === 0) return
  await executeStatement(em, (knex) =>
    knex('folders_relations').whereIn('foreign_id', ids).delete(),
  )
  await executeStatement(em, (knex) =>
    knex('folders_relations')
      .whereIn('folder_parent_id', ids)
      .update({ folder_parent_id: null, modified: new Date() }),
  )
}

/**
 * Moves an item in the trees of everyone who has it: under `parentId` for those who can see that
 * folder, to the root for those who kept it under the old parent but cannot; others keep their
 * own place. The mover's own tree always follows. Cycles made elsewhere are broken.
 */
export const moveInTrees = async (
  em: EntityManager,
  item: { model: ItemModel; id: string },
  moverId: string,
  oldParent: string | null,
  parentId: string | null,
) => {
  if (parentId === null) {
    await selectSql(
      em,
      `update folders_relations set folder_parent_id = null, modified = now()
       where foreign_id = :item and (user_id = :mover or folder_parent_id = :old)
       returning id`,
      { item: item.id, mover: moverId, old: oldParent },
    )
  } else {
    await selectSql(
      em,
      `update folders_relations fr set folder_parent_id = case
         when fr.user_id = :mover or ${canReadFolderSql('fr.user_id', ':parent')} then cast(:parent as uuid)
         else null end, modified = now()
       where fr.foreign_id = :item and (fr.user_id = :mover or fr.folder_parent_id = :old
         or ${canReadFolderSql('fr.user_id', ':parent')})
       returning fr.id`,
      {
        item: item.id,
        mover: moverId,
        old: oldParent ?? '00000000-0000-0000-0000-000000000000',
        parent: parentId,
      },
    )
  }
  if (item.model === 'Folder') {
    const users = await selectRows<{ user_id: string }>(em, (knex) =>
      knex('folders_relations').where('foreign_id', item.id).select('user_id'),
    )
    await breakCycles(
      em,
      item.id,
      users.map((row) => row.user_id).filter((user) => user !== moverId),
    )
  }
}

/** The folder and the folders above it in the user's tree, nearest first. */
export const ancestorsInTree = async (
  em: EntityManager,
  userId: string,
  folderId: string,
): Promise<string[]> => {
  const rows = await selectSql<{ folder_id: string }>(
    em,
    `with recursive up(folder_id, depth) as (
       select cast(:folder as uuid), 0
       union all
       select fr.folder_parent_id, up.depth + 1 from up
       join folders_relations fr on fr.user_id = :user and fr.foreign_id = up.folder_id
       where fr.folder_parent_id is not null and up.depth < 10000)
     select folder_id from up order by depth`,
    { folder: folderId, user: userId },
  )
  return [...new Set(rows.map((row) => row.folder_id))]
}

/** True when putting `folderId` under `parentId` would put it inside itself in the user's tree. */
export const wouldCycle = async (
  em: EntityManager,
  userId: string,
  folderId: string,
  parentId: string,
) => {
  if (folderId === parentId) return true
  const rows = await selectSql<{ found: boolean }>(
    em,
    `with recursive up(folder_id, depth) as (
       select cast(:parent as uuid), 0
       union all
       select fr.folder_parent_id, up.depth + 1 from up
       join folders_relations fr on fr.user_id = :user and fr.foreign_id = up.folder_id
       where fr.folder_parent_id is not null and up.depth < 10000)
     select exists (select 1 from up where folder_id = :folder) as found`,
    { parent: parentId, user: userId, folder: folderId },
  )
  return rows[0]?.found === true
}

/** Empties a user's tree (the user is deleted). */
export const removeFromTreesOfUser = (em: EntityManager, userId: string) =>
  executeStatement(em, (knex) => knex('folders_relations').where('user_id', userId).delete())
