// Favorites: each user's marks on the resources they can read.
import { executeStatement } from '../../api/orm.ts'
import { definePlugin } from '../../api/plugin.ts'
import { FavoriteSchema } from './entities/Favorite.ts'
import { routes } from './routes.ts'

export { deleteFavoritesOf, type FavoriteJson, favoritesOfUser } from './service.ts'
export { FavoriteSchema }

export default definePlugin({
  name: 'favorites',
  dependsOn: ['permissions'],
  entities: [FavoriteSchema],
  routes,
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
