// What clients send to create or update a resource: v4 fields (name, username, uri,
// description in clear) or v5 fields (metadata encrypted to a key, with that key's id and
// kind), the type, the expiry date and the secrets. Fields passbolt ignores are dropped.
import { z } from 'zod'
import { MAX_SECRET_ARMORED } from '../secrets/index.ts'

/** Encrypted metadata: a name, usernames, up to 32 URIs, a description, custom fields. */
export const MAX_METADATA_ARMORED = 200_000

const nullableText = (max: number) => z.string().max(max).nullable().optional()

const resourceFields = {
  name: nullableText(255),
  username: nullableText(255),
  uri: nullableText(1024),
  description: nullableText(10000),
  metadata: nullableText(MAX_METADATA_ARMORED),
  metadata_key_id: z.uuid().nullable().optional(),
  metadata_key_type: z.enum(['user_key', 'shared_key']).nullable().optional(),
  resource_type_id: z.uuid().optional(),
  expired: z.iso.datetime({ offset: true }).nullable().optional(),
}

const secret = z.looseObject({ data: z.string().max(MAX_SECRET_ARMORED) })

export const createBody = z.object({
  ...resourceFields,
  folder_parent_id: z.uuid().nullable().optional(),
  personal: z.boolean().nullable().optional(),
  secrets: z
    .array(secret, { error: 'The secrets should be a list.' })
    .min(1, { error: 'The secrets should not be empty.' })
    .max(1, { error: 'The secrets should contain only the secret of the owner.' }),
})

export const updateBody = z.object({
  ...resourceFields,
  secrets: z
    .array(z.looseObject({ user_id: z.uuid(), data: z.string().max(MAX_SECRET_ARMORED) }))
    .max(100_000)
    .optional(),
})

export type CreateBody = z.output<typeof createBody>
export type UpdateBody = z.output<typeof updateBody>

/** The metadata fields of one version, as they go into the table. */
export interface MetadataFields {
  name: string | null
  username: string | null
  uri: string | null
  description: string | null
  metadata: string | null
  metadata_key_id: string | null
  metadata_key_type: string | null
}
