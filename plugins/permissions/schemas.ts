// The shapes of what the permissions plugin answers and lends to the items it guards: the
// permission rows, with their holder (a user or a group) when asked for.
import { z } from 'zod'
import { stamp, storedId } from '../../api/response-schemas.ts'
import { embeddedUserJson } from '../users/index.ts'

export const permissionType = z.union([z.literal(1), z.literal(7), z.literal(15)])

/** A group as permissions and item answers embed it. */
export const embeddedGroupJson = z.object({
  id: storedId,
  name: z.string(),
  deleted: z.boolean(),
  created: stamp,
  modified: stamp,
  created_by: storedId.optional(),
  modified_by: storedId.optional(),
  user_count: z.number().int().optional(),
})

export const permissionResponse = z.object({
  id: storedId,
  aco: z.enum(['Resource', 'Folder']),
  aco_foreign_key: storedId,
  aro: z.enum(['User', 'Group']),
  aro_foreign_key: storedId,
  type: permissionType,
  created: stamp,
  modified: stamp,
  user: embeddedUserJson.optional(),
  group: embeddedGroupJson.optional(),
})

/** What `contain[permission]` and `contain[permissions]` add to a shared item. */
export const permissionContainsResponse = {
  permission: permissionResponse.optional(),
  permissions: z.array(permissionResponse).optional(),
}

const userIds = z.array(z.object({ User: z.object({ id: storedId }) }))

/** A share simulation: who would gain access (each needs a secret) and who would lose it. */
export const shareSimulationResponse = z.object({
  changes: z.object({ added: userIds, removed: userIds }),
})
