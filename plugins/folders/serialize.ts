// Folders as the API answers them: v4 with their name, v5 with their encrypted metadata.
import { formatTimestamp } from '../../api/envelope.ts'
import type { PermissionJson } from '../permissions/index.ts'
import type { FolderRow } from './query.ts'

export const folderJson = (row: FolderRow) => {
  const json: Record<string, unknown> & { id: string } = { id: row.id }
  if (row.metadata !== null) {
    json.metadata = row.metadata
    json.metadata_key_id = row.metadata_key_id
    json.metadata_key_type = row.metadata_key_type
  } else json.name = row.name
  json.created = formatTimestamp(row.created)
  json.modified = formatTimestamp(row.modified)
  json.created_by = row.created_by
  json.modified_by = row.modified_by
  json.folder_parent_id = row.folder_parent_id
  json.personal = row.personal
  if (row.p_id) {
    const permission: PermissionJson = {
      id: row.p_id,
      aco: 'Folder',
      aco_foreign_key: row.id,
      aro: row.p_aro!,
      aro_foreign_key: row.p_aro_foreign_key!,
      type: Number(row.p_type),
      created: formatTimestamp(row.p_created),
      modified: formatTimestamp(row.p_modified),
    }
    json.permission = permission
  }
  return json
}
