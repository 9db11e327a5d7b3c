// Reads request bodies: JSON, URL-encoded forms and, where a route allows it, multipart fields
// (and files, where it allows them), within the size limit, with passbolt-style 4xx errors for
// anything else.
import type { IncomingMessage } from 'node:http'
import busboy from 'busboy'
import getRawBody from 'raw-body'
import { HttpError, messages } from './errors.ts'
import { parseQueryString } from './query.ts'

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
  if (path.length === 0 || path.length > 4 || path.some((key) => key === '' || key === '__proto__'))
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

/** Multipart fields as a nested object, `data[gpg_auth][keyid]` style names expanded; files too when allowed. */
const readMultipart = (
  req: IncomingMessage,
  limit: number,
  options: MultipartOptions,
): Promise<unknown> =>
  new Promise((resolve, reject) => {
    let parser: ReturnType<typeof busboy>
    try {
      parser = busboy({
        headers: req.headers,
        limits: {
          fieldSize: limit,
          fields: 100,
          files: options.maxFileSize ? 1 : 0,
          // One byte past the limit tells a file at the limit from a longer one.
          fileSize: options.maxFileSize ? options.maxFileSize + 1 : undefined,
          parts: 100,
        },
      })
    } catch {
      reject(new HttpError(400, 'The multipart request body is malformed.'))
      return
    }
    const pairs: string[] = []
    const files: { name: string; file: UploadedFile }[] = []
    let pending = 0
    let closed = false
    let size = 0
    let failed = false
    const fail = (error: HttpError) => {
      if (failed) return
      failed = true
      req.unpipe(parser)
      req.resume()
      reject(error)
    }
    parser.on('field', (name, value, info) => {
      size += name.length + value.length
      if (info.valueTruncated || size > limit)
        return fail(new HttpError(413, messages.bodyTooLarge))
      pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    })
    const finish = () => {
      if (failed || !closed || pending > 0) return
      const body = parseQueryString(pairs.join('&'))
      for (const { name, file } of files)
        if (!setAtPath(body, name, file))
          return fail(new HttpError(400, 'The multipart request body is malformed.'))
      resolve(body)
    }
    parser.on('file', (name, stream, info) => {
      if (!options.maxFileSize) {
        stream.resume()
        return
      }
      pending++
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('close', () => {
        pending--
        const data = Buffer.concat(chunks)
        const truncated = stream.truncated || data.length > options.maxFileSize!
        files.push({
          name,
          file: new UploadedFile(
            info.filename ?? '',
            info.mimeType,
            truncated ? Buffer.alloc(0) : data,
            truncated,
          ),
        })
        finish()
      })
    })
    parser.on('filesLimit', () => fail(new HttpError(400, 'File uploads are not accepted here.')))
    parser.on('fieldsLimit', () => fail(new HttpError(413, messages.bodyTooLarge)))
    parser.on('error', () => fail(new HttpError(400, 'The multipart request body is malformed.')))
    parser.on('close', () => {
      closed = true
      finish()
    })
    req.pipe(parser)
  })

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

export const readBody = async (
  req: IncomingMessage,
  limit: number,
  multipart: boolean | MultipartOptions = false,
): Promise<unknown> => {
  if (!hasBody(req)) return undefined
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  const json = type === 'application/json' || type.endsWith('+json')
  const form = type === 'application/x-www-form-urlencoded'
  if (multipart && type === 'multipart/form-data') {
    const options = multipart === true ? {} : multipart
    // A file may be as large as the route allows, whatever the general limit.
    const total = limit + (options.maxFileSize ?? 0)
    if (Number(req.headers['content-length'] ?? 0) > total) {
      req.resume()
      throw new HttpError(413, messages.bodyTooLarge)
    }
    return readMultipart(req, total, options)
  }
  if (!json && !form) {
    req.resume()
    throw new HttpError(415, messages.unsupportedMediaType)
  }
  let text: string
  try {
    text = await getRawBody(req, { limit, encoding: 'utf8', length: req.headers['content-length'] })
  } catch (error) {
    const status = (error as { status?: number }).status
    if (status === 413) throw new HttpError(413, messages.bodyTooLarge)
    if (status === 415) throw new HttpError(415, messages.unsupportedMediaType)
    throw new HttpError(400, 'The request body could not be read.')
  }
  if (form) return parseQueryString(text)
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    throw new HttpError(400, messages.malformedJson)
  }
}
