// A comment on a resource, by the user who wrote it; a reply names the comment it answers.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const CommentSchema = defineEntity({
  name: 'Comment',
  tableName: 'comments',
  properties: {
    ...baseProperties,
    parentId: p.uuid().nullable(),
    foreignKey: p.uuid(),
    foreignModel: p.string().length(30),
    content: p.string().length(256),
    userId: p.uuid(),
    createdBy: p.uuid().nullable(),
    modifiedBy: p.uuid().nullable(),
  },
})

export type Comment = InferEntity<typeof CommentSchema>
