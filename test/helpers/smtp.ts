// A real SMTP server on loopback (smtp-server) that keeps the messages it receives; with
// `auth`, it demands those credentials (AUTH PLAIN or LOGIN over the plain connection).
import type { ExecutionContext } from 'ava'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  to: string[]
  raw: string
  /** The text with quoted-printable soft breaks and escapes undone. */
  text: string
  /** The user the client authenticated as, if any. */
  user?: string
}

export const decodeQuotedPrintable = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)))

export interface SmtpOptions {
  auth?: { username: string; password: string }
  /** Demand XOAUTH2 with this user and access token instead. */
  oauth?: { username: string; accessToken: string }
  /** Listen on this port (e.g. one a server was told about while nothing listened). @default any free port */
  port?: number
}

export const startSmtp = async (t: ExecutionContext, options: SmtpOptions = {}) => {
  const received: ReceivedMail[] = []
  /** Failed AUTH attempts, by username. */
  const refusedLogins: string[] = []
  const server = new SMTPServer({
    disabledCommands: options.auth || options.oauth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.auth && !options.oauth,
    allowInsecureAuth: true,
    authMethods: options.oauth ? ['XOAUTH2'] : ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      const oauth = options.oauth
      if (oauth && auth.username === oauth.username && auth.accessToken === oauth.accessToken)
        return callback(null, { user: auth.username })
      const expected = options.auth
      if (expected && auth.username === expected.username && auth.password === expected.password)
        return callback(null, { user: auth.username })
      refusedLogins.push(String(auth.username))
      return callback(new Error('Invalid username or password'))
    },
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
          user: session.user as string | undefined,
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const port = (server.server.address() as { port: number }).port
  return { url: `smtp://127.0.0.1:${port}`, port, received, refusedLogins }
}
