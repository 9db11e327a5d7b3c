// A real SMTP server on loopback (smtp-server) that keeps the messages it receives.
import type { ExecutionContext } from 'ava'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  to: string[]
  raw: string
  /** The text with quoted-printable soft breaks and escapes undone. */
  text: string
}

export const decodeQuotedPrintable = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)))

export const startSmtp = async (t: ExecutionContext) => {
  const received: ReceivedMail[] = []
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      let raw = ''
      stream.on('data', (chunk) => {
        raw += chunk
      })
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          text: decodeQuotedPrintable(raw),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const port = (server.server.address() as { port: number }).port
  return { url: `smtp://127.0.0.1:${port}`, received }
}
