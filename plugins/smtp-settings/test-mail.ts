// The test e-mail: sent with the settings the administrator is editing (not the saved ones),
// with the SMTP conversation kept as passbolt's `debug` trace. Credentials never appear in it:
// nodemailer already writes `/* secret */` for them, and every form they could take (clear,
// base64, the AUTH PLAIN triple, the OAuth2 token and client secret) is masked again.
import nodemailer from 'nodemailer'
import { type SmtpServer, senderAddress, smtpTransportOptions } from '../../api/mailer.ts'

export interface TraceEntry {
  cmd: string | null
  response: { code: number; message: string }[]
}

const MASK = '*****'

/** Every spelling of the credentials that could end up in a line of the conversation. */
export const credentialForms = (
  server: SmtpServer,
  extra: readonly (string | null | undefined)[] = [],
) => {
  const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64')
  const forms = new Set<string>()
  const { username, password, accessToken } = server
  for (const value of [username, password, accessToken, ...extra])
    if (value) {
      forms.add(value)
      forms.add(base64(value))
    }
  if (username && password) forms.add(base64(`\0${username}\0${password}`))
  if (username && accessToken)
    forms.add(base64(`user=${username}\x01auth=Bearer ${accessToken}\x01\x01`))
  // Longest first, so a form containing a shorter one is masked whole.
  return [...forms].filter((form) => form.length >= 3).sort((a, b) => b.length - a.length)
}

export const maskCredentials = (text: string, forms: readonly string[]) =>
  forms.reduce((masked, form) => masked.split(form).join(MASK), text)

const formatLine = (message: unknown, args: unknown[]) => {
  let index = 0
  return String(message ?? '').replace(/%s/g, () => String(args[index++] ?? ''))
}

/** Sends the test mail; resolves with the trace, or rejects with `{message, trace}`. */
export const sendTestMail = async (
  server: SmtpServer,
  mail: { to: string; subject: string; text: string },
  secrets: readonly (string | null | undefined)[] = [],
): Promise<{ ok: boolean; trace: TraceEntry[]; error?: string }> => {
  const forms = credentialForms(server, secrets)
  const trace: TraceEntry[] = []
  const record = (entry: { tnx?: string }, message: unknown, ...args: unknown[]) => {
    const line = maskCredentials(formatLine(message, args), forms)
    if (entry.tnx === 'client') trace.push({ cmd: line, response: [] })
    else if (entry.tnx === 'server') {
      let last = trace.at(-1)
      if (!last || last.response.length > 0) {
        // The greeting, or a reply that no command of ours asked for.
        last = { cmd: null, response: [] }
        trace.push(last)
      }
      for (const part of line.split(/\r?\n/)) {
        const match = /^(\d{3})[ -]?(.*)$/.exec(part)
        last.response.push(
          match ? { code: Number(match[1]), message: match[2] } : { code: 0, message: part },
        )
      }
    }
  }
  const logger = {
    trace: () => {},
    debug: record,
    info: () => {},
    warn: () => {},
    error: () => {},
    fatal: () => {},
  }
  const transport = nodemailer.createTransport({
    ...smtpTransportOptions(server),
    logger: logger as never,
    debug: true,
  })
  try {
    await transport.sendMail({ ...mail, from: senderAddress(server.sender) })
    return { ok: true, trace }
  } catch (error) {
    return { ok: false, trace, error: maskCredentials((error as Error).message, forms) }
  } finally {
    transport.close()
  }
}
