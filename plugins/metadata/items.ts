// The rules every v5 item (a resource, a folder) follows: its metadata is one OpenPGP message
// encrypted to exactly one key, the one it names: a user's own key (`user_key`, when the
// organisation allows personal keys) or a live, unexpired metadata key (`shared_key`). The
// server never decrypts it; it only checks the message's recipient.
import type { EntityManager } from '@mikro-orm/postgresql'
import { badRequest } from '../../api/errors.ts'
import { messageRecipients, publicKeyIds, WILDCARD_KEY_ID } from '../../api/openpgp-packets.ts'
import { selectRows } from '../../api/orm.ts'
import { itemMessages } from './messages.ts'
import { metadataKeysSettings } from './settings.ts'

/** Encrypted metadata: a name, usernames, up to 32 URIs, a description, custom fields. */
export const MAX_METADATA_ARMORED = 200_000

export interface ItemMetadata {
  metadata: string
  metadata_key_id: string | null
  metadata_key_type: 'user_key' | 'shared_key'
}

/** v5 when encrypted metadata comes with the payload. */
export const payloadIsV5 = (body: { metadata?: string | null }) =>
  body.metadata !== undefined && body.metadata !== null

/** The v5 fields of a payload; 400 when a v4 field comes along or a piece is missing. */
export const v5Fields = (
  body: {
    metadata?: string | null
    metadata_key_id?: string | null
    metadata_key_type?: string | null
  },
  v4Fields: readonly unknown[],
): ItemMetadata => {
  if (v4Fields.some((value) => value !== undefined && value !== null))
    throw badRequest(itemMessages.v4FieldsInV5)
  if (!body.metadata || !body.metadata_key_type) throw badRequest(itemMessages.fewV5Fields)
  if (body.metadata_key_type === 'shared_key' && !body.metadata_key_id)
    throw badRequest(itemMessages.fewV5Fields)
  return {
    metadata: body.metadata,
    metadata_key_id: body.metadata_key_id ?? null,
    metadata_key_type: body.metadata_key_type as ItemMetadata['metadata_key_type'],
  }
}

export interface KeyOwner {
  /** `user_key` metadata must be encrypted to this user's key (the caller's own). */
  userId?: string
}

/**
 * Checks v5 metadata against the key it names and returns the key id to store (for `user_key`
 * without one, the user's key). `validationMessage` heads the 400 (`Could not validate …`).
 */
export const checkItemMetadata = async (
  em: EntityManager,
  fields: ItemMetadata,
  owner: KeyOwner,
  validationMessage: string,
): Promise<string> => {
  const invalid = (errors: Record<string, unknown>) => badRequest(validationMessage, errors)
  let keyId = fields.metadata_key_id
  let armoredKey: string
  if (fields.metadata_key_type === 'user_key') {
    if (!(await metadataKeysSettings(em)).allow_usage_of_personal_keys)
      throw invalid({
        metadata_key_type: { isMetadataKeyTypeAllowedBySettings: itemMessages.personalKeysRefused },
      })
    const [key] = await selectRows<{ id: string; armored_key: string }>(em, (knex) => {
      const query = knex('gpgkeys').where({ deleted: false }).select('id', 'armored_key')
      if (owner.userId) query.where('user_id', owner.userId)
      if (keyId || !owner.userId) query.where('id', keyId ?? null)
      return query
    })
    if (!key)
      throw invalid({ metadata_key_id: { metadata_key_exists: itemMessages.metadataKeyExists } })
    keyId = key.id
    armoredKey = key.armored_key
  } else {
    const [key] = await selectRows<{ armored_key: string; expired: string | null }>(em, (knex) =>
      knex('metadata_keys')
        .where({ id: keyId })
        .whereNull('deleted')
        .select('armored_key', 'expired'),
    )
    if (!key)
      throw invalid({ metadata_key_id: { metadata_key_exists: itemMessages.metadataKeyExists } })
    if (key.expired)
      throw invalid({
        metadata_key_id: { isMetadataKeyNotExpired: itemMessages.metadataKeyExpired },
      })
    armoredKey = key.armored_key
  }
  if (!isEncryptedToKey(fields.metadata, armoredKey))
    throw invalid({
      metadata: { isValidEncryptedResourceMetadata: itemMessages.metadataUndecryptable },
    })
  return keyId!
}

/** One recipient, the key or one of its subkeys (or anonymous). */
const isEncryptedToKey = (metadata: string, armoredKey: string) => {
  if (metadata.length > MAX_METADATA_ARMORED) return false
  try {
    const recipients = messageRecipients(metadata)
    const keyIds = publicKeyIds(armoredKey)
    return (
      recipients.length === 1 &&
      (recipients[0] === WILDCARD_KEY_ID || keyIds.includes(recipients[0]))
    )
  } catch {
    // Hostile bytes are refused, whatever part of the reader they trip.
    return false
  }
}
