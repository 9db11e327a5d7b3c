// A user's membership of a group; `is_admin` makes them one of its managers.
import { randomUUID } from 'node:crypto'
import { defineEntity, type InferEntity } from '@mikro-orm/core'

const p = defineEntity.properties

export const GroupUserSchema = defineEntity({
  name: 'GroupUser',
  tableName: 'groups_users',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    groupId: p.uuid(),
    userId: p.uuid(),
    isAdmin: p.boolean().default(false),
    created: p.datetime().onCreate(() => new Date()),
    createdBy: p.uuid().nullable(),
  },
})

export type GroupUser = InferEntity<typeof GroupUserSchema>
