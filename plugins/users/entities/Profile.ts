// A user's names, one per user.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const ProfileSchema = defineEntity({
  name: 'Profile',
  tableName: 'profiles',
  properties: {
    ...baseProperties,
    userId: p.uuid().unique(),
    firstName: p.string().length(255),
    lastName: p.string().length(255),
  },
})

export type Profile = InferEntity<typeof ProfileSchema>
