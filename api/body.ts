// Reads request bodies with koa-body: JSON, URL-encoded forms (nested the way qs nests them) and,
// where a route allows it, multipart fields and files, within the size limits, with passbolt's
// 4xx envelopes for anything else. What koa-body leaves to its user lives here too: refusing
// other media types (415), expanding `data[gpg_auth][keyid]` style multipart names, keeping an
// upload in memory and marking one longer than the route allows.
import type { IncomingMessage } from 'node:http'
import { Writable } from 'node:stream'
import type { Context } from 'koa'
import { HttpMethodEnum, koaBody } from 'koa-body'
import { HttpError, messages } from './errors.ts'
import { parseQueryString, QUERY_STRING_OPTIONS } from './query.ts'

/**
 * Names no client sends and through which a walk over request data could reach a prototype
 * (`a[key1][key2] = value` with `__proto__`, or `constructor` then `prototype`).
 */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0

/** A file part of a multipart body, kept in memory (routes that take files bound their size). */
export class UploadedFile {
  constructor(
    readonly filename: string,
    readonly mimeType: string,
    readonly data: Buffer,
    /** The part was longer than the route's file limit and was cut there. */
    readonly truncated: boolean,
  ) {}
}

/** What a route accepts in a multipart body; `files` absent: fields only. */
export interface MultipartOptions {
  /** Largest file part kept, in bytes; a longer one arrives `truncated`. */
  maxFileSize?: number
}

/** Sets `value` at the path a `profile[avatar][file]` style name names, as qs nests fields. */
const setAtPath = (target: Record<string, unknown>, name: string, value: unknown) => {
  const path = name.match(/^[^[\]]+|(?<=\[)[^[\]]*(?=\])/g) ?? []
  if (
    path.length === 0 ||
    path.length > 4 ||
    path.some((key) => key === '' || RESERVED_KEYS.has(key))
  )
    return false
  let node = target
  for (const key of path.slice(0, -1)) {
    const next = node[key]
    if (next !== undefined && (typeof next !== 'object' || next === null || Array.isArray(next)))
      return false
    node[key] ??= {}
    node = node[key] as Record<string, unknown>
  }
  node[path.at(-1)!] = value
  return true
}

/**
 * Refuses a query string or path holding U+0000: PostgreSQL cannot store it in text, and the
 * ORM, which writes values into the statement's text, cannot even send it (the server drops the
 * statement as a protocol violation). Body fields are checked by each route's validation, which
 * says which field is wrong (`isWellFormedText`), and behind it by the ORM's query hook
 * (`api/orm.ts`).
 */
export const refuseNulCharacters = (value: unknown): void => {
  const pending = [value]
  while (pending.length > 0) {
    const item = pending.pop()
    if (typeof item === 'string') {
      if (item.includes('\u0000')) throw new HttpError(400, messages.nulCharacter)
    } else if (item !== null && typeof item === 'object' && !(item instanceof UploadedFile)) {
      for (const [key, child] of Object.entries(item)) {
        if (key.includes('\u0000')) throw new HttpError(400, messages.nulCharacter)
        pending.push(child)
      }
    }
  }
}

type Parser = ReturnType<typeof koaBody>

/** An upload as it arrives: kept in memory up to one byte past the route's limit. */
class MemoryUpload extends Writable {
  readonly chunks: Buffer[] = []
  size = 0
  constructor(private readonly keep: number) {
    super()
  }
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.size += chunk.length
    if (this.size <= this.keep) this.chunks.push(chunk)
    done()
  }
}

interface Parsing {
  uploads: Map<object, MemoryUpload>
  refusedFile: boolean
}

const MALFORMED_MULTIPART = 'The multipart request body is malformed.'

/** koa-body's and formidable's errors as passbolt's answers. */
const bodyError = (error: unknown): HttpError => {
  const { status, httpCode, code } = error as { status?: number; httpCode?: number; code?: number }
  const http = status ?? httpCode
  if (http === 413) return new HttpError(413, messages.bodyTooLarge)
  if (http === 415) return new HttpError(415, messages.unsupportedMediaType)
  // formidable's own codes: 1000-1099.
  if (typeof code === 'number' && code >= 1000 && code < 1100)
    return new HttpError(400, MALFORMED_MULTIPART)
  if (error instanceof SyntaxError || (error as { type?: string }).type === 'entity.parse.failed')
    return new HttpError(400, messages.malformedJson)
  return new HttpError(400, 'The request body could not be read.')
}

const PARSED_METHODS = [
  HttpMethodEnum.POST,
  HttpMethodEnum.PUT,
  HttpMethodEnum.PATCH,
  HttpMethodEnum.DELETE,
]

/** JSON and URL-encoded bodies: one parser per limit, shared by every request. */
const parsers = new Map<number, Parser>()
const parserFor = (limit: number): Parser => {
  let parser = parsers.get(limit)
  if (!parser) {
    parser = koaBody({
      json: true,
      urlencoded: true,
      text: false,
      multipart: false,
      jsonTypes: ['json', '+json'],
      jsonStrict: false,
      jsonLimit: limit,
      formLimit: limit,
      queryString: QUERY_STRING_OPTIONS,
      parsedMethods: PARSED_METHODS,
    })
    parsers.set(limit, parser)
  }
  return parser
}

/** Multipart bodies: a parser of the request's own, since it keeps that request's uploads. */
const multipartParser = (limit: number, maxFileSize: number, state: Parsing): Parser =>
  koaBody({
    json: false,
    urlencoded: false,
    text: false,
    multipart: true,
    parsedMethods: PARSED_METHODS,
    formidable: {
      maxFields: 100,
      maxFieldsSize: limit,
      // The route's own limit marks the file (MemoryUpload); this one only stops a flood.
      maxFileSize: limit + maxFileSize,
      maxTotalFileSize: limit + maxFileSize,
      allowEmptyFiles: true,
      minFileSize: 0,
      filter: () => {
        if (maxFileSize > 0) return true
        state.refusedFile = true
        return false
      },
      fileWriteStreamHandler: (file?: object) => {
        const upload = new MemoryUpload(maxFileSize)
        if (file) state.uploads.set(file, upload)
        return upload
      },
    },
  })

/** A formidable file as the route sees it. */
const uploadedFile = (file: object, upload: MemoryUpload | undefined, maxFileSize: number) => {
  const { originalFilename, mimetype } = file as { originalFilename?: string; mimetype?: string }
  const truncated = !upload || upload.size > maxFileSize
  return new UploadedFile(
    originalFilename ?? '',
    mimetype ?? '',
    truncated ? Buffer.alloc(0) : Buffer.concat(upload.chunks),
    truncated,
  )
}

/** The multipart fields and files koa-body read, as one object nested the way qs nests names. */
const nestMultipart = (
  fields: Record<string, unknown>,
  files: Record<string, unknown>,
  state: Parsing,
  maxFileSize: number,
) => {
  const pairs: string[] = []
  for (const [name, value] of Object.entries(fields))
    for (const item of Array.isArray(value) ? value : [value])
      pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(item))}`)
  const body = parseQueryString(pairs.join('&'))
  for (const [name, value] of Object.entries(files)) {
    const list = Array.isArray(value) ? value : [value]
    if (list.length !== 1) throw new HttpError(400, MALFORMED_MULTIPART)
    const file = uploadedFile(list[0] as object, state.uploads.get(list[0] as object), maxFileSize)
    if (!setAtPath(body, name, file)) throw new HttpError(400, MALFORMED_MULTIPART)
  }
  return body
}

export const readBody = async (
  ctx: Context,
  limit: number,
  multipart: boolean | MultipartOptions = false,
): Promise<unknown> => {
  const req = ctx.req
  if (!hasBody(req)) return undefined
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  const json = type === 'application/json' || type.endsWith('+json')
  const form = type === 'application/x-www-form-urlencoded'
  const isMultipart = multipart !== false && type === 'multipart/form-data'
  const options = isMultipart
    ? multipart === true
      ? {}
      : (multipart as MultipartOptions)
    : undefined
  // A body refused here is left unread: the first middleware reads what is left of it before
  // the answer goes (`readUnreadBody` in koa-app.ts), whatever refused it.
  if (!json && !form && !isMultipart) throw new HttpError(415, messages.unsupportedMediaType)
  if (options && Number(req.headers['content-length'] ?? 0) > limit + (options.maxFileSize ?? 0))
    throw new HttpError(413, messages.bodyTooLarge)
  const state: Parsing = { uploads: new Map(), refusedFile: false }
  const parser = options
    ? multipartParser(limit, options.maxFileSize ?? 0, state)
    : parserFor(limit)
  const request = ctx.request as typeof ctx.request & { body?: unknown; files?: unknown }
  try {
    await parser(ctx, async () => {})
  } catch (error) {
    throw bodyError(error)
  }
  if (options) {
    if (state.refusedFile) throw new HttpError(400, 'File uploads are not accepted here.')
    return nestMultipart(
      (request.body ?? {}) as Record<string, unknown>,
      (request.files ?? {}) as Record<string, unknown>,
      state,
      options.maxFileSize ?? 0,
    )
  }
  const body = request.body
  if (json) refuseReservedKeys(body)
  return body === '' ? undefined : body
}

/**
 * Refuses a JSON body holding a reserved key at any depth, before a validator, a handler or the
 * ORM sees it. (qs drops them from forms and query strings: `allowPrototypes: false`.)
 */
export const refuseReservedKeys = (value: unknown): void => {
  const pending = [value]
  while (pending.length > 0) {
    const item = pending.pop()
    if (item === null || typeof item !== 'object') continue
    for (const key of Object.keys(item)) {
      if (RESERVED_KEYS.has(key)) throw new HttpError(400, messages.reservedKey(key))
      pending.push((item as Record<string, unknown>)[key])
    }
  }
}
