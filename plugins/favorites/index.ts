// Favorites: each user's marks on the resources they can read.
import { executeStatement } from '../../api/orm.ts'
import { definePlugin } from '../../api/plugin.ts'
import { userDeletion } from '../users/index.ts'
import { FavoriteSchema } from './entities/Favorite.ts'
import { routes } from './routes.ts'
import { deleteLostFavorites } from './service.ts'

export { favoriteResponse } from './schemas.ts'
export {
  deleteFavoritesOf,
  type FavoriteJson,
  favoriteObject,
  favoritesOfUser,
  joinFavorite,
} from './service.ts'
export { FavoriteSchema }

export default definePlugin({
  name: 'favorites',
  dependsOn: ['permissions', 'users'],
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
  extensions: [
    userDeletion.provide({
      // A deleted user's favorites go with them.
      cleanup: async (em, subject) => {
        if (subject.kind === 'User')
          await executeStatement(em, (knex) =>
            knex('favorites').where('user_id', subject.id).delete(),
          )
      },
    }),
  ],
})
