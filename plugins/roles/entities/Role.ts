// A role: admin, user, guest (and passbolt's root), seeded by the initial migration.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const RoleSchema = defineEntity({
  name: 'Role',
  tableName: 'roles',
  properties: {
    ...baseProperties,
    name: p.string().length(50).unique(),
    description: p.string().length(255),
  },
})

export type Role = InferEntity<typeof RoleSchema>
