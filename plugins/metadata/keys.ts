// Organisation metadata keys: the public part every v5 shared item is encrypted to, with one
// encrypted copy of the private part per user (and one for the server unless zero-knowledge).
// Administrators create them (at most two active: the old and the new during a rotation),
// expire them with their revoked public key, and delete them once no item uses them.
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { formatTimestamp } from '../../api/envelope.ts'
import { badRequest, HttpError } from '../../api/errors.ts'
import { executeStatement, selectRows } from '../../api/orm.ts'
import { isUuid } from '../../api/uuid.ts'
import { lockMetadataKeys } from './lock.ts'
import { messages } from './messages.ts'
import { inspectPublicKey } from './openpgp-checks.ts'
import { checkPrivateKeyCopies, type PrivateKeyInput } from './private-keys.ts'

export interface KeyRow {
  id: string
  fingerprint: string
  armored_key: string
  expired: string | null
  deleted: string | null
  created: string
  modified: string
  created_by: string | null
  modified_by: string | null
}

const KEY_COLUMNS = [
  'id',
  'fingerprint',
  'armored_key',
  'expired',
  'deleted',
  'created',
  'modified',
  'created_by',
  'modified_by',
]

export const keyJson = (row: KeyRow) => ({
  id: row.id,
  fingerprint: row.fingerprint,
  armored_key: row.armored_key,
  created: formatTimestamp(row.created),
  modified: formatTimestamp(row.modified),
  created_by: row.created_by,
  modified_by: row.modified_by,
  expired: formatTimestamp(row.expired),
  deleted: formatTimestamp(row.deleted),
})

export const listMetadataKeys = (
  em: EntityManager,
  filters: { deleted?: boolean; expired?: boolean },
) =>
  selectRows<KeyRow>(em, (knex) => {
    const query = knex('metadata_keys').select(KEY_COLUMNS).orderBy('created').orderBy('id')
    if (filters.deleted !== undefined)
      query.where((where) =>
        filters.deleted ? where.whereNotNull('deleted') : where.whereNull('deleted'),
      )
    if (filters.expired !== undefined)
      query.where((where) =>
        filters.expired ? where.whereNotNull('expired') : where.whereNull('expired'),
      )
    return query
  })

export const findMetadataKey = async (em: EntityManager, id: string) =>
  (
    await selectRows<KeyRow>(em, (knex) => knex('metadata_keys').where({ id }).select(KEY_COLUMNS))
  )[0]

/** Live keys no item may use any more: expired ones. */
export const isKeyUsable = (row: Pick<KeyRow, 'deleted' | 'expired'> | undefined) =>
  Boolean(row && !row.deleted && !row.expired)

type Errors = Record<string, unknown>

const FINGERPRINT = /^[A-Fa-f0-9]{40}$/

/** `fingerprint` and `armored_key` of a request: 40 hex digits naming the key given. */
const checkFingerprintField = (value: unknown, errors: Errors) => {
  if (value === undefined || value === null || value === '')
    errors.fingerprint = { _required: messages.fingerprintRequired }
  else if (typeof value !== 'string' || !FINGERPRINT.test(value))
    errors.fingerprint = { custom: messages.fingerprintInvalid }
}

export interface KeyCreateInput {
  fingerprint?: unknown
  armored_key?: unknown
  metadata_private_keys?: unknown
  expired?: unknown
  deleted?: unknown
}

/** Creates a metadata key with its private copies; 400 with passbolt's error tree otherwise. */
export const createMetadataKey = async (
  em: EntityManager,
  app: AppContext,
  userId: string,
  body: KeyCreateInput,
): Promise<string> => {
  const errors: Errors = {}
  checkFingerprintField(body.fingerprint, errors)
  const facts = await inspectPublicKey(body.armored_key)
  if (body.armored_key === undefined || body.armored_key === null || body.armored_key === '')
    errors.armored_key = { _required: 'An armored key is required.' }
  else if (!facts || facts.revoked || facts.expires || !facts.strong)
    errors.armored_key = { isPublicKeyValidStrict: messages.armoredKeyInvalid }
  for (const field of ['expired', 'deleted'] as const)
    if (body[field] !== undefined && body[field] !== null)
      errors[field] = { isNullOnCreate: `The ${field} date should be null on creation.` }
  const copies = body.metadata_private_keys
  if (!Array.isArray(copies) || copies.length === 0)
    errors.metadata_private_keys = { hasAtLeast: messages.privateKeysRequired }
  if (Object.keys(errors).length > 0) throw badRequest(messages.keyValidation, errors)
  const fingerprint = (body.fingerprint as string).toUpperCase()
  if (facts!.fingerprint !== fingerprint)
    throw badRequest(messages.keyValidation, {
      fingerprint: { isMatchingKeyFingerprint: messages.fingerprintMismatch },
    })
  await lockMetadataKeys(em)
  const rules = await keyRules(em, app, fingerprint)
  if (rules) throw badRequest(messages.keyValidation, { fingerprint: rules })
  const id = randomUUID()
  const entries = await checkPrivateKeyCopies(
    em,
    app,
    (copies as unknown[]).map((copy) => ({ ...(copy as PrivateKeyInput), metadata_key_id: id })),
    { requireKeyExists: false, newKeyFingerprint: fingerprint, writerId: userId },
  )
  if (entries.errors)
    throw badRequest(messages.keyValidation, { metadata_private_keys: entries.errors })
  const now = new Date()
  await executeStatement(em, (knex) =>
    knex('metadata_keys').insert({
      id,
      fingerprint,
      armored_key: body.armored_key,
      created: now,
      modified: now,
      created_by: userId,
      modified_by: userId,
    }),
  )
  await insertPrivateKeyCopies(em, entries.valid, userId, now)
  return id
}

/** The fingerprint rules a new key breaks (unique, not the server's or a user's, two active). */
const keyRules = async (em: EntityManager, app: AppContext, fingerprint: string) => {
  const [counts] = await selectRows<{ same: string; active: string; users: string }>(em, (knex) =>
    knex.select({
      same: knex('metadata_keys').count('*').whereRaw('upper(fingerprint) = ?', [fingerprint]),
      active: knex('metadata_keys').count('*').whereNull('deleted').whereNull('expired'),
      users: knex('gpgkeys')
        .count('*')
        .whereRaw('upper(fingerprint) = ?', [fingerprint])
        .where('deleted', false),
    }),
  )
  if (Number(counts.same) > 0) return { _isUnique: messages.fingerprintUsed }
  if (app.serverKey.fingerprint === fingerprint)
    return { isNotServerKeyFingerprintRule: messages.serverKeyReused }
  if (Number(counts.users) > 0) return { isNotUserKeyFingerprintRule: messages.userKeyReused }
  if (Number(counts.active) >= 2) return { maxNoOfActiveKeys: messages.twoActive }
  return undefined
}

export const insertPrivateKeyCopies = async (
  em: EntityManager,
  copies: readonly { metadata_key_id: string; user_id: string | null; data: string }[],
  /** Who writes them; null for the server itself. */
  actorId: string | null,
  now = new Date(),
) => {
  if (copies.length === 0) return
  await executeStatement(em, (knex) =>
    knex('metadata_private_keys').insert(
      copies.map((copy) => ({
        id: randomUUID(),
        metadata_key_id: copy.metadata_key_id,
        user_id: copy.user_id,
        data: copy.data,
        created: now,
        modified: now,
        created_by: actorId,
        modified_by: actorId,
      })),
    ),
  )
}

/** A live key by id, for a change: 404 when it does not exist or was deleted. */
const liveKey = async (em: EntityManager, id: string) => {
  if (!isUuid(id)) throw badRequest(messages.keyInvalidId)
  const key = await findMetadataKey(em, id)
  if (!key) throw new HttpError(404, messages.keyNotFound)
  if (key.deleted) throw new HttpError(404, messages.keyAlreadyDeleted)
  return key
}

/**
 * Marks a key expired. The request carries the key's revoked public key (the clients revoke it
 * before telling the server), which replaces the stored one.
 */
export const expireMetadataKey = async (
  em: EntityManager,
  id: string,
  userId: string,
  body: { fingerprint?: unknown; armored_key?: unknown; expired?: unknown },
) => {
  await lockMetadataKeys(em)
  const key = await liveKey(em, id)
  if (key.expired) throw badRequest(messages.keyAlreadyExpired)
  const errors: Errors = {}
  checkFingerprintField(body.fingerprint, errors)
  const facts = await inspectPublicKey(body.armored_key)
  if (!facts) errors.armored_key = { isParsableArmoredPublicKey: messages.armoredKeyInvalid }
  else if (!facts.revoked) errors.armored_key = { isPublicKeyRevoked: messages.armoredKeyInvalid }
  const expired = typeof body.expired === 'string' ? new Date(body.expired) : undefined
  if (body.expired === undefined || body.expired === null || body.expired === '')
    errors.expired = { _required: messages.expiredRequired }
  else if (!expired || Number.isNaN(expired.getTime()))
    errors.expired = { dateTime: 'The expired date should be a valid date.' }
  // A little slack for the client's clock, which set the date a moment ago.
  else if (expired.getTime() > Date.now() + 60_000)
    errors.expired = { isDateInPast: messages.expiredInPast }
  if (Object.keys(errors).length === 0) {
    const fingerprint = (body.fingerprint as string).toUpperCase()
    if (fingerprint !== key.fingerprint.toUpperCase() || facts!.fingerprint !== fingerprint)
      errors.fingerprint = { isMatchingKeyFingerprint: messages.fingerprintMismatch }
  }
  if (Object.keys(errors).length > 0) throw badRequest(messages.keyUpdateValidation, errors)
  await executeStatement(em, (knex) =>
    knex('metadata_keys').where({ id }).update({
      armored_key: body.armored_key,
      expired,
      modified: new Date(),
      modified_by: userId,
    }),
  )
}

/** Tables whose v5 items name the metadata key they are encrypted to. */
const ITEM_TABLES = ['resources', 'folders', 'tags'] as const

/** Soft-deletes an expired key no item uses any more; its private copies go. */
export const deleteMetadataKey = async (em: EntityManager, id: string, userId: string) => {
  await lockMetadataKeys(em)
  const key = await liveKey(em, id)
  if (!key.expired) throw badRequest(messages.keyNotExpired)
  for (const table of ITEM_TABLES) {
    const used = await selectRows<{ id: string }>(em, (knex) => {
      const query = knex(table)
        .where({ metadata_key_id: id, metadata_key_type: 'shared_key' })
        .select('id')
        .limit(1)
      if (table === 'resources') query.where('deleted', false)
      return query
    })
    if (used.length > 0) throw badRequest(messages.keyInUse)
  }
  const now = new Date()
  await executeStatement(em, (knex) =>
    knex('metadata_keys')
      .where({ id })
      .update({ deleted: now, modified: now, modified_by: userId }),
  )
  await executeStatement(em, (knex) =>
    knex('metadata_private_keys').where({ metadata_key_id: id }).delete(),
  )
}
