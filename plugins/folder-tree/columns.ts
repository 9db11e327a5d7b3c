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
 * `folder_parent_id` and `personal` for long lists, as joins rather than two lookups a row: the
 * user's place of each item (`itemColumn`), and the holders of the items `items` selects
 * counted once. Returns the two columns to select.
 */
export const joinTreeColumns = (
  query: Knex.QueryBuilder,
  knex: Knex,
  userId: string,
  itemColumn: string,
  items: Knex.QueryBuilder,
) => {
  query
    .leftJoin('folders_relations as my_place', (on) =>
      on.on('my_place.foreign_id', itemColumn).andOnVal('my_place.user_id', userId),
    )
    .leftJoin(
      knex('folders_relations')
        .whereIn('folders_relations.foreign_id', items)
        .groupBy('folders_relations.foreign_id')
        .select('folders_relations.foreign_id', knex.raw('count(*) = 1 as personal'))
        .as('tree_holders'),
      'tree_holders.foreign_id',
      itemColumn,
    )
  return {
    folderParentId: knex.ref('my_place.folder_parent_id'),
    personal: knex.raw('coalesce(tree_holders.personal, false)'),
  }
}
