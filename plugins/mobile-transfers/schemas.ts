// Wire shapes of the mobile transfers: what the extension sends to start one, what the phone
// and the extension send to move it on, and what both read back.
import { z } from 'zod'
import { messages } from './messages.ts'

export const STATUSES = ['start', 'in progress', 'complete', 'cancel', 'error'] as const
export type TransferStatus = (typeof STATUSES)[number]

/** passbolt stores pages in a small integer. */
export const MAX_PAGES = 65535

export const createBody = z.looseObject({
  total_pages: z
    .number({
      error: (issue) =>
        issue.input === undefined ? messages.totalPagesRequired : messages.totalPagesRange,
    })
    .int({ error: messages.totalPagesRange })
    .min(1, { error: messages.totalPagesRange })
    .max(MAX_PAGES - 1, { error: messages.totalPagesRange }),
  hash: z
    .string({
      error: (issue) => (issue.input === undefined ? messages.hashRequired : messages.hashFormat),
    })
    .regex(/^[0-9a-fA-F]{128}$/, { error: messages.hashFormat })
    .meta({ examples: ['ab'.repeat(64)] }),
})

export const updateBody = z.looseObject({
  status: z.enum(STATUSES, {
    error: (issue) => (issue.input === undefined ? messages.statusRequired : messages.statusList),
  }),
  // The extension's cancel sends no page: the current one stays.
  current_page: z
    .number({ error: messages.currentPageRange })
    .int({ error: messages.currentPageRange })
    .min(0, { error: messages.currentPageRange })
    .max(MAX_PAGES - 1, { error: messages.currentPageRange })
    .optional(),
})

export type CreateBody = z.output<typeof createBody>
export type UpdateBody = z.output<typeof updateBody>

const embeddedUser = z.looseObject({
  id: z.uuid(),
  username: z.string(),
  profile: z.looseObject({ first_name: z.string(), last_name: z.string() }).nullable().optional(),
})

export const transferSchema = z.object({
  id: z.uuid(),
  user_id: z.uuid(),
  authentication_token_id: z.uuid(),
  hash: z.string(),
  current_page: z.number().int(),
  total_pages: z.number().int(),
  status: z.enum(STATUSES),
  created: z.string(),
  modified: z.string(),
  user: embeddedUser.nullable().optional(),
})

/** The answer to a new transfer carries the token the phone will prove itself with. */
export const createdTransferSchema = transferSchema.extend({
  authentication_token: z.object({
    id: z.uuid(),
    token: z.uuid(),
    active: z.boolean(),
    type: z.literal('mobile_transfer'),
    created: z.string(),
    modified: z.string(),
  }),
})

export type TransferJson = z.output<typeof transferSchema>
