// The shape of a folder as the API answers it: v4 with its name or v5 with its encrypted
// metadata, and what `contain[...]` adds (its children are answered without contains).
import { z } from 'zod'
import { stamp, storedId } from '../../api/response-schemas.ts'
import { permissionContainsResponse } from '../permissions/index.ts'
import { resourceResponse } from '../resources/index.ts'
import { embeddedUserJson } from '../users/index.ts'

const folderFields = {
  id: storedId,
  name: z.string().optional(),
  metadata: z.string().optional(),
  metadata_key_id: storedId.nullable().optional(),
  metadata_key_type: z.enum(['user_key', 'shared_key']).nullable().optional(),
  created: stamp,
  modified: stamp,
  created_by: storedId.nullable(),
  modified_by: storedId.nullable(),
  folder_parent_id: storedId.nullable(),
  personal: z.boolean().nullable(),
  permission: permissionContainsResponse.permission,
}

export const folderResponse = z.object({
  ...folderFields,
  permissions: permissionContainsResponse.permissions,
  creator: embeddedUserJson.nullable().optional(),
  modifier: embeddedUserJson.nullable().optional(),
  children_folders: z.array(z.object(folderFields)).optional(),
  children_resources: z.array(resourceResponse).optional(),
})
