// A resource's secret encrypted for one user: exactly one per user who can read the resource.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const SecretSchema = defineEntity({
  name: 'Secret',
  tableName: 'secrets',
  properties: {
    ...baseProperties,
    userId: p.uuid(),
    resourceId: p.uuid(),
    data: p.text(),
    createdBy: p.uuid().nullable(),
    modifiedBy: p.uuid().nullable(),
  },
})

export type Secret = InferEntity<typeof SecretSchema>
