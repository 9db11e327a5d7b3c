// The shape of a secret as the API answers it: the caller's own OpenPGP message of a resource.
import { z } from 'zod'
import { stamp, storedId } from '../../api/response-schemas.ts'

export const secretResponse = z.object({
  id: storedId,
  user_id: storedId,
  resource_id: storedId,
  data: z.string(),
  created: stamp,
  modified: stamp,
  created_by: storedId.nullable(),
  modified_by: storedId.nullable(),
})
