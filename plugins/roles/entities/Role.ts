// A role: the built-in admin, user and guest, and the custom roles administrators add (soft
// deleted, so a past role still names itself).
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const RoleSchema = defineEntity({
  name: 'Role',
  tableName: 'roles',
  properties: {
    ...baseProperties,
    name: p.string().length(50),
    description: p.string().length(255),
    deleted: p.datetime().nullable(),
    createdBy: p.uuid().nullable(),
    modifiedBy: p.uuid().nullable(),
    deletedBy: p.uuid().nullable(),
  },
})

export type Role = InferEntity<typeof RoleSchema>
