// A user's mark on a resource they like to find first; one per user and resource.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const FavoriteSchema = defineEntity({
  name: 'Favorite',
  tableName: 'favorites',
  properties: {
    ...baseProperties,
    userId: p.uuid(),
    foreignKey: p.uuid(),
    foreignModel: p.string().length(30),
  },
})

export type Favorite = InferEntity<typeof FavoriteSchema>
