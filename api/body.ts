// Reads request bodies: JSON and URL-encoded forms (multipart joins with the login routes),
// within the size limit, with passbolt-style 4xx errors for anything else.
import type { IncomingMessage } from 'node:http'
import getRawBody from 'raw-body'
import { HttpError, messages } from './errors.ts'
import { parseQueryString } from './query.ts'

const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0

export const readBody = async (req: IncomingMessage, limit: number): Promise<unknown> => {
  if (!hasBody(req)) return undefined
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  const json = type === 'application/json' || type.endsWith('+json')
  const form = type === 'application/x-www-form-urlencoded'
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
