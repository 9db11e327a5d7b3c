// The shape of a favorite as the API answers it, alone or on a resource (`contain[favorite]`).
import { z } from 'zod'
import { stamp, storedId } from '../../api/response-schemas.ts'

export const favoriteResponse = z.object({
  id: storedId,
  user_id: storedId,
  foreign_key: storedId,
  foreign_model: z.literal('Resource'),
  created: stamp,
  modified: stamp,
})
