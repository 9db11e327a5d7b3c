// A password (or other item) people share: cleartext metadata (v4) or metadata encrypted to a
// user's or the organisation's metadata key (v5). Soft-deleted.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const ResourceSchema = defineEntity({
  name: 'Resource',
  tableName: 'resources',
  properties: {
    ...baseProperties,
    name: p.string().length(255).nullable(),
    username: p.string().length(255).nullable(),
    uri: p.string().length(1024).nullable(),
    description: p.text().nullable(),
    metadata: p.text().nullable(),
    metadataKeyId: p.uuid().nullable(),
    metadataKeyType: p.string().length(100).nullable(),
    resourceTypeId: p.uuid(),
    deleted: p.boolean().default(false),
    expired: p.datetime().nullable(),
    createdBy: p.uuid().nullable(),
    modifiedBy: p.uuid().nullable(),
  },
})

export type Resource = InferEntity<typeof ResourceSchema>
