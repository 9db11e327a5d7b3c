// Wire shapes of the roles plugin: a role as answered, and the name an administrator gives a
// custom role (trimmed, 1 to 50 characters, not one of the built-in names).
import { z } from 'zod'
import { isWellFormedText } from '../../api/validation.ts'
import { messages } from './messages.ts'

/** Names of the built-in roles, which no custom role may take, and which cannot be deleted. */
export const RESERVED_ROLE_NAMES = ['guest', 'user', 'admin', 'root'] as const

/** Live roles an organisation may have, the built-in ones included, as passbolt allows. */
export const MAXIMUM_ROLES = 5

export const roleSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  created: z.string(),
  modified: z.string(),
  created_by: z.uuid().nullable().optional(),
  modified_by: z.uuid().nullable().optional(),
  deleted: z.string().nullable().optional(),
  user_count: z.number().int().optional(),
})

const name = z
  .string({
    error: (issue) => (issue.input === undefined ? messages.nameRequired : messages.nameUtf8),
  })
  .transform((value) => value.trim())
  .superRefine((value, context) => {
    const rule = (ruleName: string, message: string) =>
      context.addIssue({ code: 'custom', message, params: { rule: ruleName } })
    if (value.length === 0) rule('_empty', messages.nameEmpty)
    else if (!isWellFormedText(value)) rule('utf8', messages.nameUtf8)
    else if ([...value].length > 50) rule('maxLength', messages.nameLength)
    else if ((RESERVED_ROLE_NAMES as readonly string[]).includes(value.toLowerCase()))
      rule('reservedRole', messages.reservedName)
  })

export const roleBody = z.looseObject({ name })
export type RoleBody = z.output<typeof roleBody>
