// One role's control function (allow, deny...) over one UI action.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const RbacSchema = defineEntity({
  name: 'Rbac',
  tableName: 'rbacs',
  properties: {
    ...baseProperties,
    roleId: p.uuid(),
    foreignModel: p.string().length(36),
    foreignId: p.uuid(),
    controlFunction: p.string().length(64),
    createdBy: p.uuid().nullable(),
    modifiedBy: p.uuid().nullable(),
  },
})

export type Rbac = InferEntity<typeof RbacSchema>
