// Bodies the group routes accept and the shapes they answer, for validation and the API
// reference. The bodies are checked row by row by the services, with passbolt's messages.
import { z } from 'zod'

const stamp = z.string().nullable()

const membership = z.looseObject({
  id: z.uuid(),
  group_id: z.uuid(),
  user_id: z.uuid(),
  is_admin: z.boolean(),
  created: stamp,
  user: z.record(z.string(), z.unknown()).optional(),
})

export const groupResponse = z.looseObject({
  id: z.uuid(),
  name: z.string(),
  deleted: z.boolean(),
  created: stamp,
  modified: stamp,
  created_by: z.uuid().optional(),
  modified_by: z.uuid().optional(),
  user_count: z.number().int().optional(),
  my_group_user: membership.nullable().optional(),
  groups_users: z.array(membership).optional(),
  users: z.array(z.record(z.string(), z.unknown())).optional(),
  modifier: z.record(z.string(), z.unknown()).nullable().optional(),
})

export const dryRunResponse = z.object({
  'dry-run': z.object({
    SecretsNeeded: z.array(
      z.object({ Secret: z.object({ resource_id: z.uuid(), user_id: z.uuid() }) }),
    ),
    Secrets: z.array(
      z.object({ Secret: z.array(z.object({ resource_id: z.uuid(), data: z.string() })) }),
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

export const deleteBody = z.object({ transfer: z.unknown().optional() }).optional()
