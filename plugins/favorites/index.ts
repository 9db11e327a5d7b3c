// Favorites: each user's marks on the resources they can read.
import { executeStatement } from '../../api/orm.ts'
import { definePlugin } from '../../api/plugin.ts'
import { FavoriteSchema } from './entities/Favorite.ts'
import { routes } from './routes.ts'
import { deleteLostFavorites } from './service.ts'

export { deleteFavoritesOf, type FavoriteJson, favoritesOfUser } from './service.ts'
export { FavoriteSchema }

export default definePlugin({
  name: 'favorites',
  dependsOn: ['permissions'],
  entities: [FavoriteSchema],
  routes,
  // Who can no longer read a resource loses their mark on it.
  accessChanged: async (em, changes) => {
    await deleteLostFavorites(
      em,
      changes
        .filter((change) => change.aco === 'Resource')
        .flatMap((change) => change.lost.map((userId) => ({ resourceId: change.id, userId }))),
    )
  },
  deletion: {
    // A deleted user's favorites go with them.
    cleanup: async (em, subject) => {
      if (subject.kind === 'User')
        await executeStatement(em, (knex) =>
          knex('favorites').where('user_id', subject.id).delete(),
        )
    },
  },
})
