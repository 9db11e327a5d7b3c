// What a share sends: the permission changes (typed by the permissions plugin) and one secret per
// user who gains access. Each secret row is typed field by field and refused with passbolt's rule
// and message for that field; whether the message is for that user's key, and whether each user
// with access has exactly one, is checked once the changes are known.
import { z } from 'zod'
import { rowOf, uuidText, withRule } from '../../api/validation.ts'
import { permissionChanges } from '../permissions/index.ts'
import { messages } from './messages.ts'

/** Most secrets one share may carry. */
export const MAX_SECRETS = 100_000

const secretEntry = z.object({
  user_id: withRule(uuidText, 'uuid', messages.secretUserUuid, {
    message: messages.secretUserRequired,
  }).describe('The user the message is encrypted for.'),
  data: withRule(z.string().min(1), '_empty', messages.secretEmpty, {
    message: messages.secretRequired,
  }).describe('The secret, an ASCII-armored OpenPGP message for that user’s key.'),
  resource_id: withRule(uuidText, 'uuid', messages.invalidId)
    .optional()
    .describe('The resource shared; the route’s id decides.'),
})

export const shareBody = z.object({
  permissions: permissionChanges.optional(),
  secrets: z
    .array(
      rowOf(secretEntry, { field: 'data', rule: '_required', message: messages.secretRequired }),
    )
    .max(MAX_SECRETS)
    .optional(),
})

export const simulateBody = z.object({ permissions: permissionChanges.optional() })
