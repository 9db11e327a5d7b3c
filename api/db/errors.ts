// Database errors a client's input can still provoke, despite validation and locking (a race
// between two requests, a value the schema refuses): each becomes the 4xx it is, never a 500.
import { HttpError, messages } from '../errors.ts'

/** PostgreSQL's SQLSTATE for text it cannot store (U+0000 in a value). */
export const UNSTORABLE_TEXT = '22021'

/** SQLSTATEs of failures a retry of the whole transaction can cure. */
export const RETRYABLE = new Set(['40001', '40P01'])

export const sqlStateOf = (error: unknown): string | undefined => {
  if (!(error instanceof Error)) return undefined
  const code =
    (error as { sqlState?: unknown }).sqlState ?? (error as { code?: unknown }).code ?? undefined
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined
}

/**
 * SQLSTATEs of a server that is going away or not taking connections: connection exceptions,
 * an administrator's or a crash shutdown, a server still starting, too many connections.
 */
const UNAVAILABLE_STATE = /^(08...|57P0[1-3]|53300)$/
/** What Node and the driver say when the server cannot be reached or the connection dropped. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
])
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection error|Timeout acquiring a connection|timeout exceeded when trying to connect|Client was closed|not queryable/i

/** Whether the error says the database cannot be reached right now (a retry later may work). */
export const isDatabaseUnavailable = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false
  const state = sqlStateOf(error)
  if (state) return UNAVAILABLE_STATE.test(state)
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true
  return (
    error.name === 'ConnectionException' ||
    error.name === 'KnexTimeoutError' ||
    UNAVAILABLE_MESSAGE.test(error.message)
  )
}

/** Seconds a client is asked to wait before trying again while the database is away. */
export const UNAVAILABLE_RETRY_SECONDS = 5

/** The answer while the database is away: 503, and when to try again. */
export const databaseUnavailable = () =>
  new HttpError(503, messages.databaseUnavailable, '', {
    'Retry-After': String(UNAVAILABLE_RETRY_SECONDS),
  })

/** The client-facing error for a database failure, or undefined when it is the server's own. */
export const httpErrorOfDatabase = (error: unknown): HttpError | undefined => {
  if (isDatabaseUnavailable(error)) return databaseUnavailable()
  const state = sqlStateOf(error)
  if (!state) return undefined
  if (state === UNSTORABLE_TEXT) return new HttpError(400, messages.nulCharacter)
  if (state === '23505' || RETRYABLE.has(state))
    return new HttpError(409, messages.concurrentChange)
  // Data exceptions (bad text representation, too long, out of range), a row changed twice by
  // one statement, and integrity violations (missing reference, null, check).
  if (state.startsWith('22') || ['21000', '23502', '23503', '23514'].includes(state))
    return new HttpError(400, messages.validation)
  return undefined
}
