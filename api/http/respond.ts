// Writes answers: the passbolt envelope for JSON, and the headers every answer carries.
import { Readable } from 'node:stream'
import type Koa from 'koa'
import { envelope, JsonDocument, JsonRowStream, JsonRows, type Pagination } from '../envelope.ts'
import type { Client } from './forwarded.ts'
import { rowStream } from './row-stream.ts'

/** The headers passbolt sets on every answer (its security headers middleware's defaults). */
export const SECURITY_HEADERS: Record<string, string> = {
  'X-Permitted-Cross-Domain-Policies': 'all',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  'X-Download-Options': 'noopen',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; connect-src 'self'; base-uri 'self'; frame-src 'self'; frame-ancestors 'none'; form-action 'self'",
  'Permissions-Policy': 'unload=(*)',
}

/**
 * API answers depend on who asks (and carry cookies); no cache, shared or private, may keep
 * them. A route that serves something public and cacheable (an avatar) sets its own.
 */
export const NO_STORE = 'no-store'

export interface State {
  requestId: string
  action: string
  /** The route pattern once one matched; logged instead of the path, which may hold tokens. */
  routePath?: string
  /** The client, as the socket or a trusted proxy describes it. */
  client: Client
}

export type Context = Koa.ParameterizedContext<State>

export const sendEnvelope = (
  ctx: Context,
  status: number,
  message: string,
  body: unknown,
  options: { pagination?: Pagination; outcome?: 'success' | 'error' } = {},
) => {
  ctx.status = status
  ctx.type = 'application/json'
  ctx.set('Cache-Control', NO_STORE)
  const payload = envelope({
    requestId: ctx.state.requestId,
    status,
    action: ctx.state.action,
    message,
    url: ctx.originalUrl,
    body,
    pagination: options.pagination,
  })
  if (options.outcome) payload.header.status = options.outcome
  if (body instanceof JsonRowStream) {
    ctx.body = rowStream(payload.header, body.batches)
    return
  }
  if (body instanceof JsonDocument) {
    ctx.body = `{"header":${JSON.stringify(payload.header)},"body":${body.text}}`
    return
  }
  if (body instanceof JsonRows) {
    ctx.body = Readable.from(rowChunks(payload.header, body.rows))
    return
  }
  ctx.body =
    Array.isArray(body) && body.length > STREAM_ROWS
      ? Readable.from(jsonChunks(payload.header, body))
      : JSON.stringify(payload)
}

/** Lists longer than this are written in pieces rather than as one string. */
const STREAM_ROWS = 500

/**
 * The envelope of a long list, a few hundred rows at a time: a list of tens of megabytes never
 * exists as one string, so it is neither held twice nor left to the garbage collector whole.
 */
function* jsonChunks(header: unknown, rows: unknown[]): Generator<string> {
  yield `{"header":${JSON.stringify(header)},"body":[`
  for (let start = 0; start < rows.length; start += STREAM_ROWS) {
    const piece = JSON.stringify(rows.slice(start, start + STREAM_ROWS))
    yield `${start === 0 ? '' : ','}${piece.slice(1, -1)}`
  }
  yield ']}'
}

/** The envelope of a list whose rows are JSON already, a few hundred rows a piece. */
function* rowChunks(header: unknown, rows: readonly string[]): Generator<string> {
  yield `{"header":${JSON.stringify(header)},"body":[`
  for (let start = 0; start < rows.length; start += STREAM_ROWS)
    yield `${start === 0 ? '' : ','}${rows.slice(start, start + STREAM_ROWS).join(',')}`
  yield ']}'
}
