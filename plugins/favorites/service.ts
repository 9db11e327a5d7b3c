// Favorites through the query builder: a user's marks on resources, set once, read many at a
// time for lists, removed with the resource or the user's access.
import { randomUUID } from 'node:crypto'
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import { formatTimestamp } from '../../api/envelope.ts'
import { jsonObjectText, jsonPlainString, jsonString } from '../../api/json-text.ts'
import { executeStatement, selectRows, selectSql } from '../../api/orm.ts'
import { jsonDate } from '../users/index.ts'

interface Row {
  id: string
  user_id: string
  foreign_key: string
  foreign_model: string
  created: string
  modified: string
}

const COLUMNS = ['id', 'user_id', 'foreign_key', 'foreign_model', 'created', 'modified']

export const favoriteJson = (row: Row) => ({
  id: row.id,
  user_id: row.user_id,
  foreign_key: row.foreign_key,
  foreign_model: row.foreign_model,
  created: formatTimestamp(row.created),
  modified: formatTimestamp(row.modified),
})

export type FavoriteJson = ReturnType<typeof favoriteJson>

/** The user's favorite of each of these resources, by resource id. */
export const favoritesOfUser = async (em: EntityManager, userId: string, resourceIds: string[]) => {
  const rows = await selectRows<Row>(em, (knex) =>
    knex('favorites').where('user_id', userId).whereIn('foreign_key', resourceIds).select(COLUMNS),
  )
  return new Map(rows.map((row) => [row.foreign_key, favoriteJson(row)]))
}

/**
 * Joins the user's favorite of each row's resource (`itemColumn`) to a list whose rows
 * PostgreSQL writes as JSON; `favoriteObject` is then the row's `favorite`, as `favoriteJson`.
 */
export const joinFavorite = (query: Knex.QueryBuilder, userId: string, itemColumn: string) =>
  query.leftJoin('favorites', (on) =>
    on.on('favorites.foreign_key', itemColumn).andOnVal('favorites.user_id', userId),
  )

/** The favorite `joinFavorite` joined, or null, as JSON text. */
export const favoriteObject = (knex: Knex) => {
  const uuid = (column: string) =>
    jsonPlainString(knex, knex.ref(`favorites.${column}`), { notNull: true })
  const date = (column: string) => jsonDate(knex, `favorites.${column}`, { notNull: true })
  return knex.raw(`case when favorites.id is null then 'null' else ? end`, [
    jsonObjectText(knex, [
      ['id', uuid('id')],
      ['user_id', uuid('user_id')],
      ['foreign_key', uuid('foreign_key')],
      ['foreign_model', jsonString(knex, knex.ref('favorites.foreign_model'))],
      ['created', date('created')],
      ['modified', date('modified')],
    ]),
  ])
}

/** Marks the resource; undefined when the user had already marked it. */
export const addFavorite = async (em: EntityManager, userId: string, resourceId: string) => {
  const now = new Date()
  const [row] = await selectRows<Row>(em, (knex) =>
    knex('favorites')
      .insert({
        id: randomUUID(),
        user_id: userId,
        foreign_key: resourceId,
        foreign_model: 'Resource',
        created: now,
        modified: now,
      })
      .onConflict(['foreign_key', 'user_id'])
      .ignore()
      .returning(COLUMNS),
  )
  return row ? favoriteJson(row) : undefined
}

/** Removes the user's favorite with this id; whether there was one. */
export const removeFavorite = async (em: EntityManager, userId: string, id: string) =>
  (await executeStatement(em, (knex) =>
    knex('favorites').where({ id, user_id: userId }).delete(),
  )) > 0

/** Removes the favorites of these resources, of everyone or of the given users only. */
/** Deletes the favorites of these users on these resources (pairs), in one statement. */
export const deleteLostFavorites = async (
  em: EntityManager,
  pairs: readonly { resourceId: string; userId: string }[],
) => {
  if (pairs.length === 0) return
  await selectSql(
    em,
    `delete from favorites f
     using (select unnest(cast(:resources as uuid[])) as resource_id,
                   unnest(cast(:users as uuid[])) as user_id) lost
     where f.foreign_key = lost.resource_id and f.user_id = lost.user_id
     returning f.id`,
    {
      resources: `{${pairs.map((pair) => pair.resourceId).join(',')}}`,
      users: `{${pairs.map((pair) => pair.userId).join(',')}}`,
    },
  )
}

export const deleteFavoritesOf = (em: EntityManager, resourceIds: string[], userIds?: string[]) =>
  executeStatement(em, (knex) => {
    const query = knex('favorites').whereIn('foreign_key', resourceIds)
    if (userIds) query.whereIn('user_id', userIds)
    return query.delete()
  })
