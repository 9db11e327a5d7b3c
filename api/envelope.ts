// The passbolt response envelope: `{header: {id, status, servertime, action, message, url,
// code, pagination?}, body}`, and the value formats inside it.
import { randomUUID } from 'node:crypto'
import { v5 as uuidv5 } from 'uuid'

/** passbolt's seed namespace for action ids: `SettingsIndex.index` is `bef9f3ca-…`. */
const ACTION_NAMESPACE = 'd5447ca1-950f-459d-8b20-86ddfdd0f922'

const actionIds = new Map<string, string>()

/** Deterministic UUIDv5 of `<Controller>.<action>`, as passbolt logs and rate-limits by it. */
export const actionId = (name: string): string => {
  let id = actionIds.get(name)
  if (!id) {
    id = uuidv5(name, ACTION_NAMESPACE)
    actionIds.set(name, id)
  }
  return id
}

export interface Pagination {
  count: number
  page: number
  limit: number | null
}

export interface EnvelopeHeader {
  id: string
  status: 'success' | 'error'
  servertime: number
  action: string
  message: string
  url: string
  code: number
  pagination?: Pagination
}

export interface Envelope {
  header: EnvelopeHeader
  body: unknown
}

export const DEFAULT_SUCCESS_MESSAGE = 'The operation was successful.'

export const envelope = (options: {
  requestId?: string
  status: number
  action: string
  message: string
  url: string
  body: unknown
  pagination?: Pagination
}): Envelope => ({
  header: {
    id: options.requestId ?? randomUUID(),
    status: options.status < 400 ? 'success' : 'error',
    servertime: Math.floor(Date.now() / 1000),
    action: actionId(options.action),
    message: options.message,
    url: options.url,
    code: options.status,
    ...(options.pagination ? { pagination: options.pagination } : {}),
  },
  body: options.body,
})

/** `2024-07-03T12:52:06+00:00`: the date format of every API answer. */
export const formatDate = (date: Date | null | undefined): string | null =>
  date ? `${date.toISOString().slice(0, 19)}+00:00` : null

/**
 * A timestamp as a query-builder row carries it (PostgreSQL's text, the session being in UTC:
 * `2024-07-03 12:52:06.123456+00`), or a Date, in the API's format. The text is cut rather
 * than parsed: lists format hundreds of thousands of them.
 */
export const formatTimestamp = (value: string | Date | null | undefined): string | null => {
  if (value === null || value === undefined) return null
  if (value instanceof Date) return formatDate(value)
  if (value.length >= 22 && value[10] === ' ' && value.endsWith('+00'))
    return `${value.slice(0, 10)}T${value.slice(11, 19)}+00:00`
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? null : formatDate(date)
}

/** A body that is one value already written as JSON: the envelope carries it as is. */
export class JsonDocument {
  constructor(readonly text: string) {}
}

/**
 * A list body already written as JSON (each row built by PostgreSQL): the envelope carries it
 * as is. Only for hot lists whose query selects exactly the documented fields.
 */
export class JsonRows {
  constructor(readonly rows: readonly string[]) {}
}

/**
 * A batch of a list's documents: each one's JSON text, or all of them already written as the
 * answer carries them (comma-separated, UTF-8), as a list kept from an earlier answer gives them.
 */
export type JsonRowBatch = readonly string[] | Buffer

/** A list body written as JSON by PostgreSQL and read a batch at a time, as it is sent. */
export interface JsonRowBatches {
  /** The next rows, in order; none once the list is over. */
  next(): Promise<JsonRowBatch>
  /** Given the bytes each batch of rows was sent as, in order. */
  sent?(batch: Buffer): void
  /** Stops the reading and frees what it holds (a database connection); idempotent. */
  close(): Promise<void>
}

/**
 * A list body too long to hold whole: the envelope's header (with the pagination the handler
 * knew before the first row was sent) is written first, then each batch as it comes.
 */
export class JsonRowStream {
  constructor(readonly batches: JsonRowBatches) {}
}
