// The shape of a resource as the API answers it: v4 with its cleartext fields or v5 with its
// encrypted metadata, never both, and what `contain[...]` adds.
import { z } from 'zod'
import { stamp, storedId } from '../../api/response-schemas.ts'
import { favoriteResponse } from '../favorites/index.ts'
import { permissionContainsResponse } from '../permissions/index.ts'
import { resourceTypeResponse } from '../resource-types/index.ts'
import { secretResponse } from '../secrets/index.ts'
import { tagResponse } from '../tags/index.ts'
import { embeddedUserJson } from '../users/index.ts'

const text = z.string().nullable().optional()

export const resourceResponse = z.object({
  id: storedId,
  // v4: in clear.
  name: text,
  username: text,
  uri: text,
  description: text,
  // v5: encrypted to a user key or the organisation's metadata key.
  metadata: z.string().optional(),
  metadata_key_id: storedId.nullable().optional(),
  metadata_key_type: z.enum(['user_key', 'shared_key']).nullable().optional(),
  deleted: z.boolean(),
  created: stamp,
  modified: stamp,
  created_by: storedId.nullable(),
  modified_by: storedId.nullable(),
  resource_type_id: storedId,
  expired: stamp,
  folder_parent_id: storedId.nullable(),
  personal: z.boolean().nullable(),
  ...permissionContainsResponse,
  creator: embeddedUserJson.nullable().optional(),
  modifier: embeddedUserJson.nullable().optional(),
  favorite: favoriteResponse.nullable().optional(),
  secrets: z.array(secretResponse).optional(),
  resource_type: resourceTypeResponse.optional(),
  tags: z.array(tagResponse).optional(),
})
