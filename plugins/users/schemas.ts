// Request bodies and response shapes of the users routes.
import { z } from 'zod'
import { isWellFormedText } from '../../api/validation.ts'
import { avatarFile } from '../avatars/index.ts'
import { deletionTransferSchema } from './extensions.ts'

const date = z.string().nullable()

const avatar = z.object({
  id: z.string().optional(),
  created: date.optional(),
  modified: date.optional(),
  url: z.object({ medium: z.string(), small: z.string() }),
})

export const profileJson = z.object({
  id: z.string(),
  user_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  created: date,
  modified: date,
  avatar,
})

export const userJson = z.object({
  id: z.string(),
  role_id: z.string(),
  username: z.string(),
  active: z.boolean(),
  deleted: z.boolean(),
  disabled: date,
  created: date,
  modified: date,
  last_logged_in: date,
  is_mfa_enabled: z.boolean().optional(),
  missing_metadata_key_ids: z.array(z.string()).optional(),
  profile: profileJson.nullable().optional(),
  role: z
    .object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      created: date,
      modified: date,
    })
    .optional(),
  gpgkey: z
    .object({
      id: z.string(),
      user_id: z.string(),
      armored_key: z.string(),
      bits: z.number().nullable(),
      uid: z.string(),
      key_id: z.string(),
      fingerprint: z.string(),
      type: z.string(),
      expires: date,
      key_created: date,
      deleted: z.boolean(),
      created: date,
      modified: date,
    })
    .nullable()
    .optional(),
  groups_users: z
    .array(
      z.object({
        id: z.string(),
        group_id: z.string(),
        user_id: z.string(),
        is_admin: z.boolean(),
        created: date,
      }),
    )
    .optional(),
})

/** A user as other answers embed them (an item's creator, a permission's holder). */
export const embeddedUserJson = userJson.pick({
  id: true,
  role_id: true,
  username: true,
  active: true,
  deleted: true,
  disabled: true,
  created: true,
  modified: true,
  last_logged_in: true,
  profile: true,
})

const name = z
  .string({ error: 'The name should be a string.' })
  .trim()
  .min(1, 'The name should not be empty.')
  .max(255, 'The name length should be maximum 255 characters.')
  .refine(isWellFormedText, {
    error: 'The name should be a valid UTF8 string.',
    params: { rule: 'utf8Extended' },
  })

/** What `PUT /users/{id}.json` reads; anything else (username, active...) is ignored. */
export const editBody = z.object({
  role_id: z.uuid({ error: 'The role identifier should be a valid UUID.' }).optional(),
  disabled: z
    .union([z.null(), z.literal(''), z.iso.datetime({ offset: true }), z.iso.date()], {
      error: 'The disabled date should be a valid date.',
    })
    .transform((value) => (value ? new Date(value) : null))
    .optional(),
  profile: z
    .object({
      first_name: name.optional(),
      last_name: name.optional(),
      avatar: z.object({ file: avatarFile }).optional(),
    })
    // The picture is a file part of a form, which a JSON example cannot carry.
    .meta({ examples: [{ first_name: 'Ada', last_name: 'Lovelace' }] })
    .optional(),
})

export const deleteBody = z.object({ transfer: deletionTransferSchema }).optional()
