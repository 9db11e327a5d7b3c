// Folders as the API answers them: v4 with their name, v5 with their encrypted metadata.
import { formatTimestamp } from '../../api/envelope.ts'
import { callerPermissionJson } from '../permissions/index.ts'
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
  const permission = callerPermissionJson('Folder', row)
  if (permission) json.permission = permission
  return json
}
