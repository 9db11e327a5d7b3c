// A tag on a resource: for everyone who can read the resource when the tag is shared (no user),
// for its one user otherwise.
import { randomUUID } from 'node:crypto'
import { defineEntity, type InferEntity } from '@mikro-orm/core'

const p = defineEntity.properties

export const ResourceTagSchema = defineEntity({
  name: 'ResourceTag',
  tableName: 'resources_tags',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    resourceId: p.uuid(),
    tagId: p.uuid(),
    userId: p.uuid().nullable(),
    created: p.datetime().onCreate(() => new Date()),
  },
})

export type ResourceTag = InferEntity<typeof ResourceTagSchema>
