// Metadata session keys: a user's own cache of the session keys that open their items'
// metadata, encrypted to their key, so the extension does not decrypt thousands of messages at
// every sign-in. Updates carry the `modified` date they started from: a stale one is a 409.
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { lockRows } from '../../api/db/transaction.ts'
import { formatTimestamp } from '../../api/envelope.ts'
import { badRequest, HttpError } from '../../api/errors.ts'
import { executeStatement, selectRows } from '../../api/orm.ts'
import { isUuid } from '../../api/uuid.ts'
import { messages } from './messages.ts'
import { isAddressedOnlyTo } from './openpgp-checks.ts'

/** A bundle holds one session key per item (~150 bytes each): this is ~30,000 items. */
export const MAX_SESSION_KEYS_ARMORED = 5_000_000

interface Row {
  id: string
  user_id: string
  data: string
  created: string
  modified: string
}

const COLUMNS = ['id', 'user_id', 'data', 'created', 'modified']

const sessionKeyJson = (row: Row) => ({
  id: row.id,
  user_id: row.user_id,
  data: row.data,
  created: formatTimestamp(row.created),
  modified: formatTimestamp(row.modified),
})

export const listSessionKeys = async (em: EntityManager, userId: string) =>
  (
    await selectRows<Row>(em, (knex) =>
      knex('metadata_session_keys').where('user_id', userId).select(COLUMNS).orderBy('created'),
    )
  ).map(sessionKeyJson)

/** The data rules: an armored message for the user's key alone. */
const checkData = async (em: EntityManager, userId: string, data: unknown) => {
  if (typeof data !== 'string' || data === '')
    throw badRequest(messages.dataValidation, { data: { _required: 'The data is required.' } })
  const [key] = await selectRows<{ armored_key: string }>(em, (knex) =>
    knex('gpgkeys').where({ user_id: userId, deleted: false }).select('armored_key'),
  )
  if (!key || !isAddressedOnlyTo(data, key.armored_key, MAX_SESSION_KEYS_ARMORED))
    throw badRequest(messages.sessionKeyValidation, {
      data: { isValidEncryptedMetadataSessionKey: messages.privateKeyWrongRecipient },
    })
  return data
}

export const createSessionKey = async (em: EntityManager, userId: string, data: unknown) => {
  if (typeof data !== 'string') throw badRequest('The data must be a string.')
  await checkData(em, userId, data)
  const now = new Date()
  const row: Row = {
    id: randomUUID(),
    user_id: userId,
    data,
    created: now.toISOString(),
    modified: now.toISOString(),
  }
  await executeStatement(em, (knex) =>
    knex('metadata_session_keys').insert({ ...row, created: now, modified: now }),
  )
  return sessionKeyJson(row)
}

/** The caller's own bundle, locked for the change; 404 for anyone else's. */
const ownBundle = async (em: EntityManager, userId: string, id: string) => {
  if (!isUuid(id)) throw badRequest(messages.sessionKeyInvalidId)
  await lockRows(em, 'metadata_session_keys', [id.toLowerCase()])
  const [row] = await selectRows<Row>(em, (knex) =>
    knex('metadata_session_keys').where({ id: id.toLowerCase(), user_id: userId }).select(COLUMNS),
  )
  if (!row) throw new HttpError(404, messages.sessionKeyNotFound)
  return row
}

/** Seconds since the epoch: passbolt compares `modified` to the second. */
const toSecond = (value: string | Date) => Math.floor(new Date(value).getTime() / 1000)

const ISO_DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/

export const updateSessionKey = async (
  em: EntityManager,
  userId: string,
  id: string,
  body: { data?: unknown; modified?: unknown },
) => {
  if (!isUuid(id)) throw badRequest(messages.sessionKeyInvalidId)
  const errors: Record<string, Record<string, string>> = {}
  if (typeof body.data !== 'string' || body.data === '')
    errors.data = { _required: 'The data is required.' }
  if (typeof body.modified !== 'string' || !ISO_DATETIME.test(body.modified))
    errors.modified = {
      [body.modified === undefined ? '_required' : 'dateTime']:
        body.modified === undefined
          ? 'A modified date is required.'
          : 'The modified date should be a valid ISO 80601 date.',
    }
  if (Object.keys(errors).length > 0) throw badRequest(messages.dataValidation, errors)
  const row = await ownBundle(em, userId, id)
  if (row.data === body.data) throw badRequest(messages.sessionKeyIdentical)
  if (toSecond(body.modified as string) !== toSecond(row.modified))
    throw new HttpError(409, messages.sessionKeyChanged)
  const data = await checkData(em, userId, body.data)
  const now = new Date()
  await executeStatement(em, (knex) =>
    knex('metadata_session_keys').where({ id: row.id }).update({ data, modified: now }),
  )
  return sessionKeyJson({ ...row, data, modified: now.toISOString() })
}

export const deleteSessionKey = async (em: EntityManager, userId: string, id: string) => {
  const row = await ownBundle(em, userId, id)
  await executeStatement(em, (knex) => knex('metadata_session_keys').where({ id: row.id }).delete())
}
