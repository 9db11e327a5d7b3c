// Wire shapes of the UI rights: a role's right over a UI action, the UI actions with the control
// functions each accepts, and the changes an administrator sends.
import { z } from 'zod'
import { messages } from './messages.ts'
import { CONTROL_FUNCTIONS } from './ui-actions.ts'

export const uiActionSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  created: z.string(),
  modified: z.string(),
})

export const uiActionWithFunctionsSchema = uiActionSchema.extend({
  allowed_control_functions: z.array(z.enum(CONTROL_FUNCTIONS)),
})

export const rbacSchema = z.object({
  id: z.uuid(),
  role_id: z.uuid(),
  foreign_model: z.enum(['UiAction', 'Action']),
  foreign_id: z.uuid(),
  control_function: z.enum(CONTROL_FUNCTIONS),
  created: z.string(),
  modified: z.string(),
  created_by: z.uuid().nullable(),
  modified_by: z.uuid().nullable(),
  ui_action: uiActionSchema.optional(),
})

export type RbacJson = z.output<typeof rbacSchema>

export const updateBody = z
  .array(
    z.strictObject({
      id: z.uuid(),
      control_function: z.string().max(256),
    }),
  )
  .min(1, { error: messages.empty })
  .max(1000)
  .superRefine((entries, context) => {
    if (new Set(entries.map((entry) => entry.id)).size !== entries.length)
      context.addIssue({ code: 'custom', message: messages.uniqueIds, params: { rule: 'unique' } })
  })

export type UpdateBody = z.output<typeof updateBody>
