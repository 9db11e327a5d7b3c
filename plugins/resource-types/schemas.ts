// The shape of a resource type as the API answers it, alone or on a resource
// (`contain[resource-type]`), and the body that restores a deleted one.
import { z } from 'zod'
import { stamp, storedId } from '../../api/response-schemas.ts'

export const resourceTypeResponse = z.object({
  id: storedId,
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** The JSON schemas of the type's metadata and secret, as passbolt publishes them. */
  definition: z.record(z.string(), z.unknown()),
  deleted: stamp,
  created: stamp,
  modified: stamp,
  resources_count: z.number().int().optional(),
})

/**
 * The restore body, `{"deleted": null}`. passbolt answers each wrong body with a message of its
 * own rather than an error tree, so the handler tells them apart: a `deleted` that is not null
 * reaches it as undefined (the key still present), and other fields pass through to be refused.
 */
export const restoreBody = z.looseObject({
  deleted: z
    .null()
    .optional()
    .catch(undefined)
    .describe('`null` restores the type; nothing else may be sent.'),
})
