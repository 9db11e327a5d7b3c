// What a client sends to change who may access an item (a resource or folder share, and its
// simulation): rows typed field by field for the API reference, refused with the rule and
// message passbolt gives for that field. What depends on the item (whether an `id` is one of
// its permissions, a missing field of an add) is checked by `applyPermissionChanges`.
import { z } from 'zod'
import { cakeBoolean, rowOf, uuidText, withRule } from '../../api/validation.ts'
import { messages } from './changes.ts'

/** Most rows one share may carry. */
export const MAX_PERMISSION_CHANGES = 10_000

const permissionChange = z.object({
  id: withRule(z.string().meta({ format: 'uuid' }), 'exists', messages.exists)
    .nullable()
    .optional()
    .describe('The permission to change or remove; absent to add one.'),
  aro: withRule(z.enum(['User', 'Group']), 'inList', messages.aroInList)
    .optional()
    .describe('Who is given access (an add).'),
  aro_foreign_key: withRule(uuidText, 'uuid', messages.aroKeyUuid)
    .optional()
    .describe('The id of that user or group (an add).'),
  aco: z.enum(['Resource', 'Folder']).optional().describe('The item’s kind; the route decides.'),
  aco_foreign_key: withRule(uuidText, 'uuid', messages.acoKeyUuid)
    .optional()
    .describe('The item’s id; the route decides.'),
  type: withRule(z.literal([1, 7, 15]), 'inList', messages.typeInList)
    .optional()
    .describe('Read (1), update (7) or owner (15).'),
  delete: withRule(cakeBoolean, 'boolean', messages.deleteBoolean)
    .optional()
    .describe('Removes the permission named by `id`.'),
  is_new: z.boolean().optional().describe('Set by some clients on an add; ignored.'),
})

/** `permissions`: the changes, in order; a row that is not an object is refused on its `id`. */
export const permissionChanges = z
  .array(rowOf(permissionChange, { field: 'id', rule: 'array', message: messages.notArray }))
  .max(MAX_PERMISSION_CHANGES)
