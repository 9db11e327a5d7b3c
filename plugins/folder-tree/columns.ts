// What lists of resources and folders read from the trees: the caller's parent of each item,
// whether only one user has it (personal), and the items under given parents in the caller's
// tree (`filter[has-parent]`, where `null` is the root).
import type { Knex } from '@mikro-orm/postgresql'

/** `folder_parent_id`: the item's parent in the user's tree. */
export const folderParentColumn = (knex: Knex, userId: string, itemColumn: string) =>
  knex('folders_relations')
    .select('folders_relations.folder_parent_id')
    .where('folders_relations.foreign_id', knex.ref(itemColumn))
    .andWhere('folders_relations.user_id', userId)
    .limit(1)
    .as('folder_parent_id')

/** `personal`: one user only has the item in their tree. */
export const personalColumn = (knex: Knex, itemColumn: string) =>
  knex('folders_relations')
    .select(knex.raw('count(*) = 1'))
    .where('folders_relations.foreign_id', knex.ref(itemColumn))
    .as('personal')

/** Ids of the items under these parents (`null`: the root) in the user's tree. */
export const itemsUnderParents = (
  knex: Knex,
  userId: string,
  parents: readonly (string | null)[],
) =>
  knex('folders_relations')
    .select('folders_relations.foreign_id')
    .where('folders_relations.user_id', userId)
    .andWhere((where) => {
      const folders = parents.filter((parent): parent is string => parent !== null)
      if (folders.length) where.orWhereIn('folders_relations.folder_parent_id', folders)
      if (parents.includes(null)) where.orWhereNull('folders_relations.folder_parent_id')
    })

/**
 * `folder_parent_id` and `personal` for long lists: the user's place of each item
 * (`itemColumn`) as a join, and whether another user holds it, read from the index on the item
 * and stopped at the first (counting every holder of every item would hash the whole table in
 * a large organisation). Returns the two columns to select.
 */
export const joinTreeColumns = (
  query: Knex.QueryBuilder,
  knex: Knex,
  userId: string,
  itemColumn: string,
) => {
  query.leftJoin('folders_relations as my_place', (on) =>
    on.on('my_place.foreign_id', itemColumn).andOnVal('my_place.user_id', userId),
  )
  // A scalar subquery rather than `not exists`, which the planner would turn into a hash of
  // every other user's relations.
  const another = knex('folders_relations as others')
    .select(knex.raw('1'))
    .where('others.foreign_id', knex.ref(itemColumn))
    .andWhereNot('others.user_id', userId)
    .limit(1)
  const holders = knex('folders_relations as holders')
    .count('*')
    .where('holders.foreign_id', knex.ref(itemColumn))
  return {
    folderParentId: knex.ref('my_place.folder_parent_id'),
    // One holder: the user alone, or (outside the user's tree) one other.
    personal: knex.raw('case when my_place.id is null then (?) = 1 else (?) is null end', [
      holders,
      another,
    ]),
  }
}
