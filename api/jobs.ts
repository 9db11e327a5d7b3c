// Runs the plugins' periodic jobs once a period across every API process on the database: each
// process looks every minute, and starts a job only if its one conditional upsert on
// `scheduled_jobs` moved the job's start time forward (of two processes looking at once, one
// statement waits for the other's row and then finds the period taken).
import type { AppContext } from './app.ts'
import { runInTransaction } from './db/transaction.ts'
import { loggableError } from './http/log-safety.ts'
import { selectSql } from './orm.ts'
import type { ScheduledJob } from './plugin.ts'
import { backgroundWork } from './request-scope.ts'

const LOOK_EVERY_MS = 60_000

/** Claims the job's current period for this process; false when another process has it. */
export const claimJobPeriod = async (app: AppContext, job: ScheduledJob): Promise<boolean> => {
  const rows = await selectSql<{ name: string }>(
    app.orm.em.fork(),
    `insert into scheduled_jobs (name, last_started) values (:name, now())
     on conflict (name) do update set last_started = now()
     where scheduled_jobs.last_started <= now() - make_interval(secs => :seconds)
     returning name`,
    { name: job.name, seconds: job.everyMs / 1000 },
  )
  return rows.length === 1
}

export class JobScheduler {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined

  constructor(private readonly app: AppContext) {}

  private get jobs(): ScheduledJob[] {
    return this.app.plugins.flatMap((plugin) => plugin.jobs ?? [])
  }

  start(): void {
    this.timer = setInterval(() => void this.runDue(), LOOK_EVERY_MS)
    this.timer.unref()
    void this.runDue()
  }

  /** Runs every job whose period is not yet taken; resolves when they are over. */
  runDue(): Promise<void> {
    this.running ??= backgroundWork
      .run('jobs', () => this.runEach())
      .finally(() => {
        this.running = undefined
      })
    return this.running
  }

  private async runEach(): Promise<void> {
    for (const job of this.jobs) {
      try {
        if (!(await claimJobPeriod(this.app, job))) continue
        const started = performance.now()
        await runInTransaction(this.app.orm.em.fork(), (em) => job.run(em, this.app))
        this.app.logger.info(
          { job: job.name, ms: Math.round(performance.now() - started) },
          'scheduled job done',
        )
      } catch (error) {
        // The period is spent; the next one tries again.
        this.app.logger.error({ job: job.name, err: loggableError(error) }, 'scheduled job failed')
      }
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    await this.running
  }
}
