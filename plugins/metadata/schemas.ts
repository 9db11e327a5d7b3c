// Response schemas of the metadata routes: what each answer carries, for the API reference and
// to drop anything else.
import { z } from 'zod'
import { METADATA_KEYS_SETTINGS, METADATA_TYPES_SETTINGS } from './defaults.ts'

const timestamp = z.string().nullable()
const uuid = z.string()

export const typesSettingsJson = z.object(
  Object.fromEntries(
    Object.entries(METADATA_TYPES_SETTINGS).map(([key, value]) => [
      key,
      typeof value === 'string' ? z.enum(['v4', 'v5']) : z.boolean(),
    ]),
  ),
)

export const keysSettingsJson = z.object(
  Object.fromEntries(Object.keys(METADATA_KEYS_SETTINGS).map((key) => [key, z.boolean()])),
)

export const setupSettingsJson = z.object({ enable_encrypted_metadata_on_install: z.boolean() })

export const gettingStartedJson = z.object({ enabled: z.boolean() })

export const privateKeyJson = z.object({
  id: uuid,
  metadata_key_id: uuid,
  user_id: uuid.nullable(),
  data: z.string(),
  created: timestamp,
  modified: timestamp,
  created_by: uuid.nullable(),
  modified_by: uuid.nullable(),
})

export const metadataKeyJson = z.object({
  id: uuid,
  fingerprint: z.string(),
  armored_key: z.string(),
  created: timestamp,
  modified: timestamp,
  created_by: uuid.nullable(),
  modified_by: uuid.nullable(),
  expired: timestamp,
  deleted: timestamp,
  metadata_private_keys: z.array(privateKeyJson).optional(),
  creator: z.looseObject({ id: uuid }).nullable().optional(),
})

export const sessionKeyJson = z.object({
  id: uuid,
  user_id: uuid,
  data: z.string(),
  created: timestamp,
  modified: timestamp,
})
