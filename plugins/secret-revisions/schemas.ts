// Wire shapes of the password history: the organisation's settings and a resource's revisions.
import { z } from 'zod'
import { messages } from './messages.ts'

/** Past revisions an organisation may keep besides the current secret, as passbolt's default. */
export const MAX_PAST_REVISIONS = 10

export const DEFAULT_SETTINGS = { max_revisions: 1, allow_sharing_revisions: false }

export const settingsSchema = z.object({
  max_revisions: z.number().int(),
  allow_sharing_revisions: z.boolean(),
})

export type Settings = z.output<typeof settingsSchema>

export const settingsBody = z.looseObject({
  max_revisions: z
    .number({
      error: (issue) => (issue.input === undefined ? messages.maxRequired : messages.maxInteger),
    })
    .int({ error: messages.maxInteger })
    .min(1, { error: messages.maxPositive })
    .max(MAX_PAST_REVISIONS + 1, { error: messages.maxLimit })
    .meta({ examples: [5] }),
  // Sharing past secrets with users who gain access later is not offered (nor by passbolt's
  // default configuration): every past secret stays with the user it was encrypted for.
  allow_sharing_revisions: z
    .boolean({
      error: (issue) =>
        issue.input === undefined ? messages.sharingRequired : messages.sharingBoolean,
    })
    .refine((value) => value === false, {
      error: messages.sharingDisabled,
      params: { rule: 'isRevisionsSharingAllowed' },
    })
    .meta({ examples: [false] }),
})

const secretSchema = z.object({
  id: z.uuid(),
  user_id: z.uuid(),
  resource_id: z.uuid(),
  secret_revision_id: z.uuid(),
  data: z.string(),
  created: z.string(),
  modified: z.string(),
})

export const revisionSchema = z.object({
  id: z.uuid(),
  resource_id: z.uuid(),
  resource_type_id: z.uuid(),
  created: z.string(),
  created_by: z.uuid(),
  modified: z.string(),
  modified_by: z.uuid(),
  deleted: z.string().nullable(),
  secrets: z.array(secretSchema).optional(),
  creator: z.looseObject({ id: z.uuid(), username: z.string() }).nullable().optional(),
})

export type RevisionJson = z.output<typeof revisionSchema>
