// A kind of resource (password, password with description, TOTP, …): what its metadata and
// secret hold, as JSON schemas the clients apply. Soft-deleted by a date.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const ResourceTypeSchema = defineEntity({
  name: 'ResourceType',
  tableName: 'resource_types',
  properties: {
    ...baseProperties,
    slug: p.string().length(64),
    name: p.string().length(64),
    description: p.text().nullable(),
    definition: p.json<Record<string, unknown>>(),
    deleted: p.datetime().nullable(),
  },
})

export type ResourceType = InferEntity<typeof ResourceTypeSchema>
