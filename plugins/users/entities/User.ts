// A user account: inactive until setup completes; soft-deleted; suspended while `disabled` is set.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    ...baseProperties,
    roleId: p.uuid(),
    username: p.string().length(255),
    active: p.boolean().default(false),
    deleted: p.boolean().default(false),
    disabled: p.datetime().nullable(),
    lastLoggedIn: p.datetime().nullable(),
    createdBy: p.uuid().nullable(),
    modifiedBy: p.uuid().nullable(),
  },
})

export type User = InferEntity<typeof UserSchema>
