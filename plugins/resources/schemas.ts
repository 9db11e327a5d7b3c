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

// The API reference's examples: a v4 resource, since a body generated field by field would mix
// v4 and v5 fields, which no client sends.
const exampleSecret = '-----BEGIN PGP MESSAGE-----\n\nwcFMA…\n-----END PGP MESSAGE-----\n'
const exampleResource = {
  name: 'Bank',
  username: 'ada@example.com',
  uri: 'https://bank.example.com/',
  description: null,
  resource_type_id: 'a28a04cd-6f53-518a-967c-9963bf9cec51',
}

export const createBody = z
  .object({
    ...resourceFields,
    folder_parent_id: z.uuid().nullable().optional(),
    personal: z.boolean().nullable().optional(),
    secrets: z
      .array(secret, { error: 'The secrets should be a list.' })
      .min(1, { error: 'The secrets should not be empty.' })
      .max(1, { error: 'The secrets should contain only the secret of the owner.' }),
  })
  .meta({
    examples: [{ ...exampleResource, folder_parent_id: null, secrets: [{ data: exampleSecret }] }],
  })

export const updateBody = z
  .object({
    ...resourceFields,
    secrets: z
      .array(z.looseObject({ user_id: z.uuid(), data: z.string().max(MAX_SECRET_ARMORED) }))
      .max(100_000)
      .optional(),
  })
  .meta({
    examples: [
      {
        ...exampleResource,
        secrets: [{ user_id: 'd57c10f5-639d-5160-9c81-8a0c6c4ec856', data: exampleSecret }],
      },
    ],
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
