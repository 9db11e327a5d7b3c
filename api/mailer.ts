// Outgoing mail through nodemailer: SMTP when configured; otherwise each message is written to
// `<dataDir>/outbox/` and the log notes it (recipient and subject only, never the body, which
// may hold a setup link).
import { randomUUID } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import type { Logger } from 'pino'
import type { ServerConfig } from './config.ts'

export interface Mail {
  to: string
  subject: string
  text: string
}

export interface Mailer {
  send(mail: Mail): Promise<void>
}

export const createMailer = (config: ServerConfig, logger: Logger): Mailer => {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl)
    return {
      send: async (mail) => {
        await transport.sendMail({ from: config.mailFrom, ...mail })
        logger.info({ to: mail.to, subject: mail.subject }, 'mail sent')
      },
    }
  }
  const outbox = join(config.dataDir, 'outbox')
  const stream = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  })
  return {
    send: async (mail) => {
      const info = await stream.sendMail({ from: config.mailFrom, ...mail })
      mkdirSync(outbox, { recursive: true, mode: 0o700 })
      const file = join(
        outbox,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`,
      )
      writeFileSync(file, info.message as Buffer, { mode: 0o600 })
      logger.info(
        { to: mail.to, subject: mail.subject, file },
        'mail written to the outbox (no SMTP configured)',
      )
    },
  }
}
