// Bodies the group routes accept and the shapes they answer, for validation and the API
// reference. The bodies are checked row by row by the services, with passbolt's messages.
import { z } from 'zod'
import { deletionTransferSchema } from '../../api/deletion.ts'

/** Ids as stored: the answer is not the place to refuse an id another client wrote. */
const id = z.string().meta({ format: 'uuid' })

const stamp = z.string().nullable()

const membership = z.looseObject({
  id: id,
  group_id: id,
  user_id: id,
  is_admin: z.boolean(),
  created: stamp,
  user: z.record(z.string(), z.unknown()).optional(),
})

export const groupResponse = z.looseObject({
  id: id,
  name: z.string(),
  deleted: z.boolean(),
  created: stamp,
  modified: stamp,
  created_by: id.optional(),
  modified_by: id.optional(),
  user_count: z.number().int().optional(),
  my_group_user: membership.nullable().optional(),
  groups_users: z.array(membership).optional(),
  users: z.array(z.record(z.string(), z.unknown())).optional(),
  modifier: z.record(z.string(), z.unknown()).nullable().optional(),
})

export const dryRunResponse = z.object({
  'dry-run': z.object({
    SecretsNeeded: z.array(z.object({ Secret: z.object({ resource_id: id, user_id: id }) })),
    Secrets: z.array(
      z.object({ Secret: z.array(z.object({ resource_id: id, data: z.string() })) }),
    ),
  }),
})

export const createBody = z.object({
  name: z.unknown().optional(),
  groups_users: z.unknown().optional(),
})

export const updateBody = z.object({
  name: z.unknown().optional(),
  groups_users: z.unknown().optional(),
  secrets: z.unknown().optional(),
})

export const deleteBody = z.object({ transfer: deletionTransferSchema }).optional()
