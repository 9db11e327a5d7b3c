// The encrypted copies of metadata private keys: one per user (and one for the server key when
// the organisation is not zero-knowledge). A copy is only ever stored for a user when it is an
// OpenPGP message encrypted to that user's key alone, so nobody receives what they cannot or
// should not read; a user may re-encrypt (re-sign) their own copy once.
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { lockRows } from '../../api/db/transaction.ts'
import { formatTimestamp } from '../../api/envelope.ts'
import { badRequest, HttpError } from '../../api/errors.ts'
import { UntrustedMessageError } from '../../api/openpgp-input.ts'
import { executeStatement, selectRows } from '../../api/orm.ts'
import { isUuid } from '../../api/uuid.ts'
import { messages } from './messages.ts'
import { isAddressedOnlyTo, MAX_ARMORED_PRIVATE_KEY_MESSAGE } from './openpgp-checks.ts'
import { MetadataKeyShareError, readServerCopy } from './server-copy.ts'
import { metadataKeysSettings } from './settings.ts'

export interface PrivateKeyRow {
  id: string
  metadata_key_id: string
  user_id: string | null
  data: string
  created: string
  modified: string
  created_by: string | null
  modified_by: string | null
}

const PRIVATE_KEY_COLUMNS = [
  'id',
  'metadata_key_id',
  'user_id',
  'data',
  'created',
  'modified',
  'created_by',
  'modified_by',
]

export const privateKeyJson = (row: PrivateKeyRow) => ({
  id: row.id,
  metadata_key_id: row.metadata_key_id,
  user_id: row.user_id,
  data: row.data,
  created: formatTimestamp(row.created),
  modified: formatTimestamp(row.modified),
  created_by: row.created_by,
  modified_by: row.modified_by,
})

/** The caller's own copies of these keys, by key id: never anyone else's, never the server's. */
export const ownPrivateKeys = async (em: EntityManager, userId: string, keyIds: string[]) => {
  const rows =
    keyIds.length === 0
      ? []
      : await selectRows<PrivateKeyRow>(em, (knex) =>
          knex('metadata_private_keys')
            .where('user_id', userId)
            .whereIn('metadata_key_id', keyIds)
            .select(PRIVATE_KEY_COLUMNS),
        )
  const byKey = new Map<string, PrivateKeyRow[]>()
  for (const row of rows)
    byKey.set(row.metadata_key_id, [...(byKey.get(row.metadata_key_id) ?? []), row])
  return byKey
}

/** One recipient's copy of a key (null: the server's). */
export const findPrivateKeyCopy = async (em: EntityManager, keyId: string, userId: string | null) =>
  (
    await selectRows<PrivateKeyRow>(em, (knex) =>
      knex('metadata_private_keys')
        .where({ metadata_key_id: keyId, user_id: userId })
        .select(PRIVATE_KEY_COLUMNS),
    )
  )[0]

export interface PrivateKeyInput {
  metadata_key_id?: unknown
  user_id?: unknown
  data?: unknown
}

export interface CheckedCopy {
  metadata_key_id: string
  user_id: string | null
  data: string
}

const ASCII = /^[\x20-\x7e\r\n\t]*$/

export interface CopyCheckOptions {
  /** False when the key is created with these copies (it is not stored yet). */
  requireKeyExists: boolean
  /** The fingerprint of the key being created, for its server copy. */
  newKeyFingerprint?: string
  /** Who writes the copies: a server copy must carry their signature. */
  writerId: string
  /**
   * Whether the organisation is in zero-knowledge mode, where the server holds no copy of its
   * own; read from the settings in force unless given (the settings route gives the mode it
   * is switching to).
   */
  zeroKnowledge?: boolean
}

/**
 * Checks private key copies before they are stored: well formed, for a live key (unless the
 * key is being created with them), for an active user (or the server), not yet given, and
 * encrypted to that recipient's key only. A server copy is refused in zero-knowledge mode;
 * otherwise the server reads it as it will before giving it to a new user (signed by its
 * writer, the private half of its key), so it never keeps a copy it would later refuse to
 * pass on. Errors come keyed by index, as passbolt keys them.
 */
export const checkPrivateKeyCopies = async (
  em: EntityManager,
  app: AppContext,
  copies: readonly PrivateKeyInput[],
  options: CopyCheckOptions,
): Promise<{ valid: CheckedCopy[]; errors?: Record<number, Record<string, unknown>> }> => {
  const errors: Record<number, Record<string, Record<string, string>>> = {}
  const fail = (index: number, field: string, rule: string, message: string) => {
    errors[index] = { ...errors[index], [field]: { [rule]: message } }
  }
  const shaped: (CheckedCopy & { index: number })[] = []
  copies.forEach((copy, index) => {
    if (copy === null || typeof copy !== 'object' || Array.isArray(copy)) {
      fail(index, 'data', '_required', 'A data is required.')
      return
    }
    const userId = copy.user_id ?? null
    if (userId !== null && !isUuid(userId))
      fail(index, 'user_id', 'uuid', 'The user identifier should be a valid UUID.')
    if (!isUuid(copy.metadata_key_id)) fail(index, 'metadata_key_id', 'uuid', messages.keyInvalidId)
    if (typeof copy.data !== 'string' || copy.data === '')
      fail(index, 'data', '_required', 'A data is required.')
    else if (!ASCII.test(copy.data))
      fail(index, 'data', 'ascii', 'The data should be a valid ASCII string.')
    if (!errors[index])
      shaped.push({
        index,
        metadata_key_id: (copy.metadata_key_id as string).toLowerCase(),
        user_id: userId === null ? null : (userId as string).toLowerCase(),
        data: copy.data as string,
      })
  })
  const seen = new Set<string>()
  for (const copy of shaped) {
    const pair = `${copy.metadata_key_id}|${copy.user_id}`
    if (seen.has(pair)) fail(copy.index, 'user_id', '_isUnique', messages.privateKeyComboUsed)
    seen.add(pair)
  }
  const userIds = [...new Set(shaped.flatMap((copy) => (copy.user_id ? [copy.user_id] : [])))]
  const keys = new Map(
    (
      await selectRows<{ user_id: string; armored_key: string }>(em, (knex) =>
        knex('users')
          .join('gpgkeys', 'gpgkeys.user_id', 'users.id')
          .whereIn('users.id', userIds)
          .where({ 'users.active': true, 'users.deleted': false, 'gpgkeys.deleted': false })
          .select('users.id as user_id', 'gpgkeys.armored_key'),
      )
    ).map((row) => [row.user_id, row.armored_key]),
  )
  const keyIds = [...new Set(shaped.map((copy) => copy.metadata_key_id))]
  const liveKeys = new Map(
    options.requireKeyExists
      ? (
          await selectRows<{ id: string; fingerprint: string }>(em, (knex) =>
            knex('metadata_keys')
              .whereIn('id', keyIds)
              .whereNull('deleted')
              .select('id', 'fingerprint'),
          )
        ).map((row) => [row.id, row.fingerprint])
      : keyIds.map((id) => [id, options.newKeyFingerprint ?? '']),
  )
  const forServer = shaped.some((copy) => copy.user_id === null)
  const zeroKnowledge =
    forServer &&
    (options.zeroKnowledge ?? (await metadataKeysSettings(em)).zero_knowledge_key_share)
  const [writer] = forServer
    ? await selectRows<{ armored_key: string }>(em, (knex) =>
        knex('gpgkeys').where({ user_id: options.writerId, deleted: false }).select('armored_key'),
      )
    : []
  const existing = new Set(
    (
      await selectRows<{ metadata_key_id: string; user_id: string | null }>(em, (knex) =>
        knex('metadata_private_keys')
          .whereIn('metadata_key_id', keyIds)
          .select('metadata_key_id', 'user_id'),
      )
    ).map((row) => `${row.metadata_key_id}|${row.user_id}`),
  )
  for (const copy of shaped) {
    if (errors[copy.index]) continue
    if (!liveKeys.has(copy.metadata_key_id)) {
      fail(copy.index, 'metadata_key_id', '_existsIn', messages.keyNotFound)
      continue
    }
    const recipientKey = copy.user_id ? keys.get(copy.user_id) : app.serverKey.armoredPublicKey
    if (!recipientKey) {
      fail(copy.index, 'user_id', 'isUserActiveIfPresent', messages.privateKeyUserInactive)
      continue
    }
    if (existing.has(`${copy.metadata_key_id}|${copy.user_id}`)) {
      fail(copy.index, 'user_id', '_isUnique', messages.privateKeyComboUsed)
      continue
    }
    if (copy.user_id === null && zeroKnowledge) {
      fail(copy.index, 'user_id', 'isServerCopyAllowed', messages.serverCopyZeroKnowledge)
      continue
    }
    if (!isAddressedOnlyTo(copy.data, recipientKey, MAX_ARMORED_PRIVATE_KEY_MESSAGE)) {
      fail(
        copy.index,
        'data',
        'isValidEncryptedMetadataPrivateKey',
        messages.privateKeyWrongRecipient,
      )
      continue
    }
    if (copy.user_id === null) {
      // Signed by whoever writes it, as the server will check before passing it on; a writer
      // without a key cannot have signed it.
      const readable =
        writer !== undefined &&
        (await readServerCopy(
          app,
          copy.data,
          writer.armored_key,
          liveKeys.get(copy.metadata_key_id) ?? '',
        ).then(
          () => true,
          (error: unknown) => {
            if (error instanceof MetadataKeyShareError || error instanceof UntrustedMessageError)
              return false
            throw error
          },
        ))
      if (!readable)
        fail(copy.index, 'data', 'isValidServerMetadataPrivateKey', messages.serverCopyUnreadable)
    }
  }
  const valid = shaped.filter((copy) => !errors[copy.index])
  return Object.keys(errors).length > 0 ? { valid, errors } : { valid }
}

/** A user re-encrypts their own copy (after verifying it): once, and only to their own key. */
export const updateOwnPrivateKey = async (
  em: EntityManager,
  userId: string,
  id: string,
  body: { data?: unknown },
) => {
  if (typeof body.data !== 'string' || !isUuid(id)) throw badRequest(messages.privateKeyInvalidData)
  await lockRows(em, 'metadata_private_keys', [id.toLowerCase()])
  const [row] = await selectRows<PrivateKeyRow>(em, (knex) =>
    knex('metadata_private_keys')
      .where({ id: id.toLowerCase(), user_id: userId })
      .select(PRIVATE_KEY_COLUMNS),
  )
  if (!row) throw new HttpError(404, messages.privateKeyNotFound)
  if (row.modified_by === userId) throw badRequest(messages.privateKeyAlreadyEdited)
  const [{ armored_key: armoredKey } = { armored_key: '' }] = await selectRows<{
    armored_key: string
  }>(em, (knex) => knex('gpgkeys').where({ user_id: userId, deleted: false }).select('armored_key'))
  if (!armoredKey || !isAddressedOnlyTo(body.data, armoredKey, MAX_ARMORED_PRIVATE_KEY_MESSAGE))
    throw badRequest(messages.privateKeyValidation, {
      data: { isValidEncryptedMetadataPrivateKey: messages.privateKeyWrongRecipient },
    })
  const now = new Date()
  await executeStatement(em, (knex) =>
    knex('metadata_private_keys')
      .where({ id: row.id })
      .update({ data: body.data, modified: now, modified_by: userId }),
  )
  return privateKeyJson({
    ...row,
    data: body.data,
    modified: now.toISOString(),
    modified_by: userId,
  })
}

/** Drops the server's copies (the organisation went zero-knowledge: the server must not read). */
export const deleteServerCopies = (em: EntityManager) =>
  executeStatement(em, (knex) => knex('metadata_private_keys').whereNull('user_id').delete())

/** Every copy a user holds, with their session keys: a deleted user keeps nothing. */
export const deleteCopiesOfUser = async (em: EntityManager, userId: string) => {
  await executeStatement(em, (knex) =>
    knex('metadata_private_keys').where('user_id', userId).delete(),
  )
  await executeStatement(em, (knex) =>
    knex('metadata_session_keys').where('user_id', userId).delete(),
  )
}
