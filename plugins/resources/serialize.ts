// Resources as the API answers them: v4 with their cleartext fields, v5 with their encrypted
// metadata instead, never both.
import { formatTimestamp } from '../../api/envelope.ts'
import { callerPermissionJson } from '../permissions/index.ts'
import type { ResourceRow } from './query.ts'

export const isV5 = (row: Pick<ResourceRow, 'metadata'>) => row.metadata !== null

type ItemFields = Pick<
  ResourceRow,
  'metadata' | 'metadata_key_id' | 'metadata_key_type' | 'name' | 'username' | 'uri' | 'description'
>

/** A v5 resource answers its encrypted metadata, a v4 one its clear fields, never both. */
export const putMetadataOrClearFields = (json: Record<string, unknown>, row: ItemFields) => {
  if (isV5(row)) {
    json.metadata = row.metadata
    json.metadata_key_id = row.metadata_key_id
    json.metadata_key_type = row.metadata_key_type
  } else {
    json.name = row.name
    json.username = row.username
    json.uri = row.uri
    json.description = row.description
  }
}

export const resourceJson = (row: ResourceRow) => {
  const json: Record<string, unknown> = { id: row.id }
  putMetadataOrClearFields(json, row)
  json.deleted = row.deleted
  json.created = formatTimestamp(row.created)
  json.modified = formatTimestamp(row.modified)
  json.created_by = row.created_by
  json.modified_by = row.modified_by
  json.resource_type_id = row.resource_type_id
  json.expired = formatTimestamp(row.expired)
  json.folder_parent_id = row.folder_parent_id
  json.personal = row.personal
  const permission = callerPermissionJson('Resource', row)
  if (permission) json.permission = permission
  return json
}

export type ResourceJson = ReturnType<typeof resourceJson> & { id: string }
