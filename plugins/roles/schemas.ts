// Wire shapes of the roles plugin.
import { z } from 'zod'

export const roleSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  created: z.string(),
  modified: z.string(),
})
