// Outgoing mail through nodemailer, by way of the mail queue (api/mail-queue.ts): a mail is a
// side effect, so sending it can neither fail nor roll back the request that asked for it. Each
// message may carry a notification tag, which plugins may turn off (the organisation's e-mail
// notification settings); the SMTP server is the one an administrator saved (a plugin's
// `mail.transport`), else the configured `smtpUrl`; with neither, each message is written to
// `<dataDir>/outbox/`. The log notes recipient, subject and tag, never the body (it may hold a
// setup link) nor any credential.
import { randomUUID } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import nodemailer from 'nodemailer'
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js'
import type { Logger } from 'pino'
import type { ServerConfig } from './config.ts'
import type { ChangeFeed } from './db/change-feed.ts'
import { enqueueMail, MailSender, type MailSenderOptions, type QueuedMail } from './mail-queue.ts'

export interface Mail {
  to: string
  subject: string
  text: string
  /**
   * The notification this mail is, as the organisation's e-mail notification settings name it
   * (e.g. `send_user_create`); a mail without one (security alerts) is always sent.
   */
  notification?: string
}

/** An SMTP server and sender, as an administrator saves them (passbolt's SMTP settings). */
export interface SmtpServer {
  host: string
  port: number
  /** Encrypt the connection: implicit TLS on port 465 (or an `ssl://` host), STARTTLS otherwise. */
  tls: boolean
  /** The name announced in EHLO; the machine's name when absent. */
  client?: string | null
  username?: string | null
  password?: string | null
  /** An OAuth2 access token (XOAUTH2), used instead of a password. */
  accessToken?: string
  sender: { name: string; email: string }
}

/** What plugins decide about outgoing mail. */
export interface MailPolicy {
  /** Whether mails tagged `notification` may be sent. */
  allows(notification: string): Promise<boolean>
  /** The SMTP server to use instead of the configured one, if an administrator saved one. */
  transport(): Promise<SmtpServer | undefined>
}

export interface Mailer {
  /**
   * Queues the mail through `em`, inside its transaction when it has one: it is sent after the
   * commit, never when the transaction rolls back, and its failure never reaches the caller.
   * Dropped (logged) when its notification is turned off.
   */
  send(em: EntityManager, mail: Mail): Promise<void>
  /**
   * Sends one mail at once, outside the queue, and rejects when it cannot be delivered: for an
   * administrator's check of the delivery itself (`api healthcheck --send-test-mail`).
   */
  sendNow(mail: Omit<Mail, 'notification'>): Promise<void>
  /** Sends the queued mails that are due; resolves when that pass is over (never rejects). */
  deliverDue(): Promise<void>
  /** Starts sending: on each queued mail the change feed announces, and retries when due. */
  start(changes: ChangeFeed): void
  /** Waits for the sending under way, and gives mails this process queued a first attempt. */
  stop(): Promise<void>
}

const OPEN_POLICY: MailPolicy = {
  allows: async () => true,
  transport: async () => undefined,
}

/** nodemailer's options for a saved SMTP server. */
export const smtpTransportOptions = (server: SmtpServer): SMTPTransport.Options => {
  const prefixed = /^(ssl|tls):\/\//i.exec(server.host)
  const host = prefixed ? server.host.slice(prefixed[0].length) : server.host
  const implicit = server.tls && (Boolean(prefixed) || server.port === 465)
  const auth = server.accessToken
    ? { type: 'OAuth2' as const, user: server.username ?? '', accessToken: server.accessToken }
    : server.username
      ? { user: server.username, pass: server.password ?? '' }
      : undefined
  return {
    host,
    port: server.port,
    secure: implicit,
    // passbolt's TLS setting off means a plain connection, never an opportunistic upgrade.
    requireTLS: server.tls && !implicit,
    ignoreTLS: !server.tls,
    ...(server.client ? { name: server.client } : {}),
    ...(auth ? { auth } : {}),
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  }
}

/** `"Name" <address>` for a saved sender. */
export const senderAddress = (sender: SmtpServer['sender']) => ({
  name: sender.name,
  address: sender.email,
})

export interface MailerOptions {
  orm: MikroORM
  policy?: MailPolicy
  /** Timing of the queue's retries and polls (tests shorten them). */
  queue?: Pick<MailSenderOptions, 'retryBaseMs' | 'retryMaxMs' | 'maxAttempts' | 'pollMs'>
}

export const createMailer = (
  config: ServerConfig,
  logger: Logger,
  options: MailerOptions,
): Mailer => {
  const policy = options.policy ?? OPEN_POLICY
  const configured = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : undefined
  const outbox = join(config.dataDir, 'outbox')
  const stream = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  })
  const writeToOutbox = async (message: Parameters<typeof stream.sendMail>[0]) => {
    const info = await stream.sendMail(message)
    mkdirSync(outbox, { recursive: true, mode: 0o700 })
    const file = join(
      outbox,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`,
    )
    writeFileSync(file, info.message as Buffer, { mode: 0o600 })
    return file
  }
  // One Message-ID per queued row, whichever attempt sends it: a copy sent twice (a process
  // that died between the SMTP server's answer and its commit) is recognisable as the same.
  const messageIdDomain = new URL(config.appUrl).hostname.replace(/^\[|\]$/g, '') || 'localhost'
  const deliver = async ({ id, to, subject, text }: QueuedMail) => {
    const mail = { to, subject, text, messageId: `<${id}@${messageIdDomain}>` }
    const about = { mailId: id, to, subject }
    // Asked at each attempt: settings saved (or repaired) since the mail was queued apply.
    const saved = await policy.transport()
    if (saved) {
      const transport = nodemailer.createTransport(smtpTransportOptions(saved))
      await transport.sendMail({ ...mail, from: senderAddress(saved.sender) })
      logger.info({ ...about, smtp: 'settings' }, 'mail sent')
      return
    }
    if (configured) {
      await configured.sendMail({ from: config.mailFrom, ...mail })
      logger.info({ ...about, smtp: 'configuration' }, 'mail sent')
      return
    }
    const file = await writeToOutbox({ from: config.mailFrom, ...mail })
    logger.info({ ...about, file }, 'mail written to the outbox (no SMTP configured)')
  }
  const sender = new MailSender({ orm: options.orm, logger, deliver, ...options.queue })
  return {
    send: async (em, { notification, ...mail }) => {
      if (notification && !(await policy.allows(notification))) {
        logger.info(
          { to: mail.to, subject: mail.subject, notification },
          'mail not sent: the organisation turned this notification off',
        )
        return
      }
      const mailId = await enqueueMail(em, mail)
      sender.noteQueued()
      logger.info({ mailId, to: mail.to, subject: mail.subject, notification }, 'mail queued')
    },
    sendNow: (mail) => deliver({ id: randomUUID(), attempts: 0, ...mail }),
    deliverDue: () => sender.deliverDue(),
    start: (changes) => sender.start(changes),
    stop: () => sender.stop(),
  }
}
