// Who (a user or a group) may do what (read, update, own) on an item (a resource or a folder).
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const PermissionSchema = defineEntity({
  name: 'Permission',
  tableName: 'permissions',
  properties: {
    ...baseProperties,
    aco: p.string().length(30),
    acoForeignKey: p.uuid(),
    aro: p.string().length(30),
    aroForeignKey: p.uuid(),
    type: p.smallint(),
    createdBy: p.uuid().nullable(),
    modifiedBy: p.uuid().nullable(),
  },
})

export type Permission = InferEntity<typeof PermissionSchema>
