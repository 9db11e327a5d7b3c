// Requests Node's HTTP parser refuses before the app sees them (a request line or headers past
// the size limit, a malformed request, a client too slow to send its headers): answered in the
// passbolt envelope with the status Node would have used, rather than Node's bare text.
import type { Socket } from 'node:net'
import { envelope } from '../envelope.ts'
import { NO_STORE, SECURITY_HEADERS } from './respond.ts'

const REFUSALS: Record<string, [status: number, reason: string, message: string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'The request line or headers are too large.',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request took too long to arrive.'],
}
const MALFORMED: [number, string, string] = [400, 'Bad Request', 'The request is malformed.']

export const answerClientError = (error: Error & { code?: string }, socket: Socket): void => {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy()
    return
  }
  const [status, reason, message] = REFUSALS[error.code ?? ''] ?? MALFORMED
  const body = JSON.stringify(
    envelope({ status, action: 'clientError', message, url: '', body: '' }),
  )
  const headers = {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': NO_STORE,
    Connection: 'close',
  }
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n')}\r\n\r\n${body}`,
  )
}
