// The administrators' batches over every resource of the organisation: upgrading v4 resources
// to v5 (the extension encrypts their clear metadata, each takes its v5 type), and
// re-encrypting v5 resources whose metadata key expired to the new key. Deleted resources, and
// resources of a retired type, are left out.
import { z } from 'zod'
import { formatTimestamp } from '../../api/envelope.ts'
import { defineMetadataBatchRoutes } from '../metadata/index.ts'
import { permissionContains, sharedItemIds } from '../permissions/index.ts'
import { liveResourceTypes, V4_TO_V5 } from '../resource-types/index.ts'
import { messages } from './messages.ts'
import { RESOURCE_COLUMNS, type ResourceRow } from './query.ts'
import { putMetadataOrClearFields } from './serialize.ts'

type Row = Omit<ResourceRow, 'permission_type' | 'folder_parent_id' | 'personal'>

const batchJson = (row: Row) => {
  const json: Record<string, unknown> = { id: row.id }
  putMetadataOrClearFields(json, row)
  json.resource_type_id = row.resource_type_id
  json.deleted = row.deleted
  json.expired = formatTimestamp(row.expired)
  json.created = formatTimestamp(row.created)
  json.modified = formatTimestamp(row.modified)
  json.created_by = row.created_by
  json.modified_by = row.modified_by
  return json
}

export const metadataBatchRoutes = defineMetadataBatchRoutes<Row>({
  table: 'resources',
  sharedIds: (knex) => sharedItemIds(knex, 'Resource'),
  noun: 'Resources',
  v4Items: 'v4 resources (clear metadata)',
  columns: RESOURCE_COLUMNS,
  scope: (query) =>
    query
      .join('resource_types', 'resource_types.id', 'resources.resource_type_id')
      .where('resources.deleted', false)
      .whereNull('resource_types.deleted'),
  validationMessage: messages.validation,
  prepareUpgrade: async (em) => {
    const types = await liveResourceTypes(em)
    const idOfSlug = new Map([...types].map(([id, slug]) => [slug, id]))
    return (row) => {
      const v5Type = idOfSlug.get(V4_TO_V5[types.get(row.resource_type_id) ?? ''] ?? '')
      if (!v5Type) return undefined
      return { resource_type_id: v5Type, name: null, username: null, uri: null, description: null }
    }
  },
  json: batchJson,
  itemSchema: z.looseObject({ id: z.string(), resource_type_id: z.string() }),
  upgradeQuery: {
    contain: { permissions: permissionContains.permissions },
    filter: { 'is-shared': 'boolean' },
  },
})
