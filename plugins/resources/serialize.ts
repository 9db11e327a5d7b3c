// Resources as the API answers them: v4 with their cleartext fields, v5 with their encrypted
// metadata instead, never both.
import { formatDate } from '../../api/envelope.ts'
import { toDate } from '../../api/orm.ts'
import type { PermissionJson } from '../permissions/index.ts'
import type { ResourceRow } from './query.ts'

export const isV5 = (row: Pick<ResourceRow, 'metadata'>) => row.metadata !== null

export const resourceJson = (row: ResourceRow) => {
  const json: Record<string, unknown> = { id: row.id }
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
  json.deleted = row.deleted
  json.created = formatDate(toDate(row.created))
  json.modified = formatDate(toDate(row.modified))
  json.created_by = row.created_by
  json.modified_by = row.modified_by
  json.resource_type_id = row.resource_type_id
  json.expired = formatDate(toDate(row.expired))
  json.folder_parent_id = null
  json.personal = row.personal
  if (row.p_id) {
    const permission: PermissionJson = {
      id: row.p_id,
      aco: 'Resource',
      aco_foreign_key: row.id,
      aro: row.p_aro!,
      aro_foreign_key: row.p_aro_foreign_key!,
      type: Number(row.p_type),
      created: formatDate(toDate(row.p_created)),
      modified: formatDate(toDate(row.p_modified)),
    }
    json.permission = permission
  }
  return json
}

export type ResourceJson = ReturnType<typeof resourceJson> & { id: string }
