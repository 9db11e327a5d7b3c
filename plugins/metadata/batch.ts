// What the upgrade (v4 to v5) and key rotation batches share, whichever items they carry: the
// page size the clients loop on, the shape of a batch, and the check that each item is still
// as the client read it (its `modified` to the second and `modified_by`), else 409.

import { z } from 'zod'
import { badRequest, messages as coreMessages, HttpError } from '../../api/errors.ts'
import { isUuid } from '../../api/uuid.ts'

/** Items a batch page lists, and the clients send back, at a time (passbolt's default). */
export const BATCH_PAGE_SIZE = 20

/** Items one request may carry. */
export const MAX_BATCH = 200

/**
 * The request body of an upgrade or rotation batch, resources and folders alike (documented
 * for the API reference; `parseBatch` checks each item).
 */
export const batchBody = z
  .array(
    z.looseObject({
      id: z.uuid(),
      metadata: z.string().nullable().optional(),
      metadata_key_id: z.uuid().nullable().optional(),
      metadata_key_type: z.string().nullable().optional(),
      modified: z
        .string()
        .optional()
        .meta({ examples: ['2026-01-15T09:30:00+00:00'] }),
      modified_by: z.uuid().nullable().optional(),
    }),
  )
  .max(10_000)

export const batchMessages = {
  tooLarge: 'The request data is too large.',
  empty: 'The request data should not be empty.',
  notArray: 'The entity must be an array.',
  invalidId: 'The identifier should be a valid UUID.',
  notFound: (id: string) => `Entity ${id} not found.`,
  validation: (id: string) =>
    `Could not validate the metadata key data for the entity with ID: ${id}.`,
  modifiedMismatch: 'The provided modified date does not match.',
  modifiedByMismatch: 'The provided modified by does not match.',
}

export interface BatchItem {
  id: string
  metadata?: string | null
  metadata_key_id?: string | null
  metadata_key_type?: string | null
  modified?: unknown
  modified_by?: unknown
}

/** The items of a batch request (other fields the clients send along are ignored). */
export const parseBatch = (body: unknown): BatchItem[] => {
  if (!Array.isArray(body) || body.length === 0) throw badRequest(batchMessages.empty)
  if (body.length > MAX_BATCH) throw badRequest(batchMessages.tooLarge)
  const ids = new Set<string>()
  return body.map((item) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      throw badRequest(batchMessages.notArray)
    const { id, metadata, metadata_key_id, metadata_key_type, modified, modified_by } =
      item as Record<string, unknown>
    if (!isUuid(id)) throw badRequest(batchMessages.invalidId)
    const lower = id.toLowerCase()
    if (ids.has(lower)) throw badRequest(coreMessages.validation)
    ids.add(lower)
    const text = (value: unknown) =>
      value === undefined || value === null || typeof value === 'string' ? value : false
    const fields = [text(metadata), text(metadata_key_id), text(metadata_key_type)]
    if (fields.includes(false))
      throw badRequest(batchMessages.validation(lower), { metadata: { _type: 'A string.' } })
    return {
      id: lower,
      metadata: metadata as string | null | undefined,
      metadata_key_id: metadata_key_id as string | null | undefined,
      metadata_key_type: metadata_key_type as string | null | undefined,
      modified,
      modified_by,
    }
  })
}

/** 409 unless the item is as the client last read it. */
export const assertNotStale = (
  item: BatchItem,
  current: { modified: string; modified_by: string | null },
) => {
  const sent = typeof item.modified === 'string' ? new Date(item.modified) : undefined
  if (
    !sent ||
    Number.isNaN(sent.getTime()) ||
    Math.floor(sent.getTime() / 1000) !== Math.floor(new Date(current.modified).getTime() / 1000)
  )
    throw new HttpError(409, batchMessages.modifiedMismatch)
  if (item.modified_by !== current.modified_by)
    throw new HttpError(409, batchMessages.modifiedByMismatch)
}

/** Rewraps an item's validation refusal as passbolt reports it in a batch: keyed by index. */
export const asBatchError = (error: unknown, index: number, id: string) => {
  if (error instanceof HttpError && error.status === 400)
    return badRequest(batchMessages.validation(id), {
      [index]: error.body === '' ? { metadata: { _invalid: error.message } } : error.body,
    })
  return error
}
