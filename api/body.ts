// Reads request bodies: JSON, URL-encoded forms and, where a route allows it, multipart fields,
// within the size limit, with passbolt-style 4xx errors for anything else.
import type { IncomingMessage } from 'node:http'
import busboy from 'busboy'
import getRawBody from 'raw-body'
import { HttpError, messages } from './errors.ts'
import { parseQueryString } from './query.ts'

const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0

/** Multipart fields (no files) as a nested object, `data[gpg_auth][keyid]` style names expanded. */
const readMultipart = (req: IncomingMessage, limit: number): Promise<unknown> =>
  new Promise((resolve, reject) => {
    let parser: ReturnType<typeof busboy>
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fieldSize: limit, fields: 100, files: 0, parts: 100 },
      })
    } catch {
      reject(new HttpError(400, 'The multipart request body is malformed.'))
      return
    }
    const pairs: string[] = []
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
    parser.on('file', (_name, stream) => stream.resume())
    parser.on('filesLimit', () => fail(new HttpError(400, 'File uploads are not accepted here.')))
    parser.on('fieldsLimit', () => fail(new HttpError(413, messages.bodyTooLarge)))
    parser.on('error', () => fail(new HttpError(400, 'The multipart request body is malformed.')))
    parser.on('close', () => {
      if (!failed) resolve(parseQueryString(pairs.join('&')))
    })
    req.pipe(parser)
  })

export const readBody = async (
  req: IncomingMessage,
  limit: number,
  multipart = false,
): Promise<unknown> => {
  if (!hasBody(req)) return undefined
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  const json = type === 'application/json' || type.endsWith('+json')
  const form = type === 'application/x-www-form-urlencoded'
  if (multipart && type === 'multipart/form-data') {
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      req.resume()
      throw new HttpError(413, messages.bodyTooLarge)
    }
    return readMultipart(req, limit)
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
