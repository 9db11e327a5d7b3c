// A tag: a slug (`#name` when shared) or, in v5, encrypted metadata. Who uses a tag is told by
// its links to resources; a personal tag belongs to one user (`userId`), the only one linking it.
import { randomUUID } from 'node:crypto'
import { defineEntity, type InferEntity } from '@mikro-orm/core'

const p = defineEntity.properties

export const TagSchema = defineEntity({
  name: 'Tag',
  tableName: 'tags',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    slug: p.string().length(128).nullable(),
    isShared: p.boolean(),
    userId: p.uuid().nullable(),
    metadata: p.text().nullable(),
    metadataKeyId: p.uuid().nullable(),
    metadataKeyType: p.string().length(100).nullable(),
    created: p.datetime().onCreate(() => new Date()),
  },
})

export type Tag = InferEntity<typeof TagSchema>
