// A group of users, managed by some of its members; soft-deleted.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const GroupSchema = defineEntity({
  name: 'Group',
  tableName: 'groups',
  properties: {
    ...baseProperties,
    name: p.string().length(255),
    deleted: p.boolean().default(false),
    createdBy: p.uuid().nullable(),
    modifiedBy: p.uuid().nullable(),
  },
})

export type Group = InferEntity<typeof GroupSchema>
