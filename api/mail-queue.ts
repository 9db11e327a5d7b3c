// The mail queue: `enqueueMail` writes a mail as a row through the caller's EntityManager, so
// inside the request's transaction (a rolled-back request sends nothing), and the `MailSender`
// of every process sends the committed rows. A sender claims one row at a time with
// `FOR UPDATE SKIP LOCKED` and keeps it locked while the SMTP server takes it, so two processes
// never send one mail, and a process that dies mid-send releases the row to another (the same
// Message-ID lets the recipient's server drop the copy in the rare case the first got through).
// A failure is logged and retried with backoff; after the last attempt the row stays, marked
// failed, for an administrator to look at.
import { randomUUID } from 'node:crypto'
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import type { Logger } from 'pino'
import { CoalescedRun } from './coalesced-run.ts'
import type { ChangeFeed } from './db/change-feed.ts'
import { executeStatement, selectRows } from './orm.ts'
import { backgroundWork, requestScope } from './request-scope.ts'

export const MAIL_QUEUE_TABLE = 'mail_queue'

export interface QueuedMail {
  id: string
  to: string
  subject: string
  text: string
  /** Attempts made before this one. */
  attempts: number
}

/** Writes a mail to the queue through `em` (inside its transaction when it has one). */
export const enqueueMail = async (
  em: EntityManager,
  mail: { to: string; subject: string; text: string },
): Promise<string> => {
  const id = randomUUID()
  const now = new Date()
  await executeStatement(em, (knex) =>
    knex(MAIL_QUEUE_TABLE).insert({
      id,
      recipient: mail.to,
      subject: mail.subject,
      body: mail.text,
      next_attempt_at: now,
      created: now,
      modified: now,
    }),
  )
  requestScope.getStore()?.mails.push(id)
  return id
}

/** Mails waiting to be sent (not given up on), for the metrics. */
export const pendingMailCount = async (em: EntityManager): Promise<number> => {
  const [row] = await selectRows<{ count: string }>(em, (knex) =>
    knex(MAIL_QUEUE_TABLE).whereNull('failed_at').count({ count: '*' }),
  )
  return Number(row?.count ?? 0)
}

export interface MailSenderOptions {
  orm: MikroORM
  logger: Logger
  /** Sends one mail; throws when it could not be handed over. */
  deliver(mail: QueuedMail): Promise<void>
  /** Wait before the first retry; each next one waits twice as long. @default 30 s */
  retryBaseMs?: number
  /** Longest wait between two attempts. @default 1 hour */
  retryMaxMs?: number
  /** Attempts before a mail is marked failed. @default 10 (about 4 hours) */
  maxAttempts?: number
  /** How often the queue is looked at for due retries (new mails are announced). @default 15 s */
  pollMs?: number
}

const MAX_ERROR_LENGTH = 500

export class MailSender {
  // A pass queued before `stop` does not run after it: `stop` gives its own last attempt.
  private readonly passes = new CoalescedRun(async () => {
    if (!this.stopped) await backgroundWork.run('mail-queue', () => this.pass())
  })
  private timer: NodeJS.Timeout | undefined
  private stopped = false
  /** Mails this process queued since the last pass began. */
  private unsent = 0

  constructor(private readonly options: MailSenderOptions) {}

  /** Listens for new mails on the change feed and looks for due retries now and then. */
  start(changes: ChangeFeed): void {
    changes.on(MAIL_QUEUE_TABLE, () => void this.deliverDue())
    this.timer = setInterval(() => void this.deliverDue(), this.options.pollMs ?? 15_000)
    this.timer.unref()
    void this.deliverDue()
  }

  /** Notes a mail this process queued, so stopping gives it a first attempt. */
  noteQueued(): void {
    this.unsent++
  }

  /**
   * Sends every mail that is due and not claimed by another process; resolves when a pass that
   * began after the call is over. Never rejects: failures are logged and kept in the queue.
   */
  deliverDue(): Promise<void> {
    if (this.stopped) return this.passes.settled()
    // A pass under way may have looked already: one more follows it.
    return this.passes.request()
  }

  /** Waits for the pass under way; then gives the mails this process queued a first attempt. */
  async stop(): Promise<void> {
    this.stopped = true
    clearInterval(this.timer)
    await this.passes.settled()
    if (this.unsent > 0) await backgroundWork.run('mail-queue', () => this.pass())
  }

  private async pass(): Promise<void> {
    this.unsent = 0
    try {
      while (await this.sendOne());
    } catch (error) {
      // The database is away: the next announcement or poll tries again.
      this.options.logger.warn({ err: { type: (error as Error).name } }, 'mail queue unreachable')
    }
  }

  /** Claims, sends and settles one due mail; false when none is left for this process. */
  private sendOne(): Promise<boolean> {
    const { orm, logger } = this.options
    return orm.em.fork().transactional(async (tx) => {
      const [row] = await selectRows<QueuedMail>(tx, (knex) =>
        knex(MAIL_QUEUE_TABLE)
          .select('id', 'recipient as to', 'subject', 'body as text', 'attempts')
          .whereNull('failed_at')
          .where('next_attempt_at', '<=', knex.fn.now())
          .orderBy('next_attempt_at')
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      if (!row) return false
      const about = { mailId: row.id, to: row.to, subject: row.subject }
      try {
        await this.options.deliver(row)
      } catch (error) {
        const attempts = row.attempts + 1
        const giveUp = attempts >= (this.options.maxAttempts ?? 10)
        const wait = Math.min(
          (this.options.retryBaseMs ?? 30_000) * 2 ** (attempts - 1),
          this.options.retryMaxMs ?? 3_600_000,
        )
        const reason = `${(error as Error).name}: ${(error as Error).message}`.slice(
          0,
          MAX_ERROR_LENGTH,
        )
        await executeStatement(tx, (knex) =>
          knex(MAIL_QUEUE_TABLE)
            .where({ id: row.id })
            .update({
              attempts,
              last_error: reason,
              next_attempt_at: new Date(Date.now() + wait),
              failed_at: giveUp ? new Date() : null,
              modified: new Date(),
            }),
        )
        logger.warn(
          { ...about, attempts, error: reason, ...(giveUp ? {} : { retryInMs: wait }) },
          giveUp ? 'mail not sent; no more attempts' : 'mail not sent; will retry',
        )
        return true
      }
      await executeStatement(tx, (knex) => knex(MAIL_QUEUE_TABLE).where({ id: row.id }).delete())
      return true
    })
  }
}
