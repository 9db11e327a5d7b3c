// Boots the server's parts in order: database (embedded when none is configured), ORM and
// migrations, server key, plugins; and shuts them down in reverse.
import type { MikroORM } from '@mikro-orm/postgresql'
import { type Logger, pino } from 'pino'
import type { ServerConfig } from './config.ts'
import { type Database, openDatabase } from './database.ts'
import { ChangeFeed } from './db/change-feed.ts'
import { JobScheduler } from './jobs.ts'
import { createMailer, type Mailer, type MailerOptions, type MailPolicy } from './mailer.ts'
import { createMetrics, type Metrics } from './metrics.ts'
import { allMigrations, createOrm, migrate } from './orm.ts'
import type { Plugin } from './plugin.ts'
import { assemblePlugins } from './plugin-loader.ts'
import { requestScope } from './request-scope.ts'
import { loadServerKey, type ServerKey } from './server-key.ts'
import { Throttle } from './throttle.ts'

export interface AppContext {
  config: ServerConfig
  logger: Logger
  orm: MikroORM
  database: Database
  serverKey: ServerKey
  /** Enabled plugins, dependencies first. */
  plugins: readonly Plugin[]
  mailer: Mailer
  /** What plugins keep for the life of the process (keys, caches): use `pluginState()`. */
  pluginState: Map<string, unknown>
  /** Committed changes to the rows every request reads, for the caches of them. */
  changes: ChangeFeed
  /** Rate limits shared by every process on the database. */
  throttle: Throttle
  /** The plugins' periodic jobs, run once a period across all processes. */
  jobs: JobScheduler
  /** Prometheus metrics of this process. */
  metrics: Metrics
}

/** The mail hooks of the enabled plugins, asked in plugin order. */
const mailPolicy = (app: AppContext): MailPolicy => ({
  allows: async (notification) => {
    for (const plugin of app.plugins)
      if (plugin.mail?.allows && !(await plugin.mail.allows(notification, app))) return false
    return true
  },
  transport: async () => {
    for (const plugin of app.plugins) {
      const server = await plugin.mail?.transport?.(app)
      if (server) return server
    }
    return undefined
  },
})

export const createLogger = (
  config: Pick<ServerConfig, 'logLevel'>,
  destination?: { write(line: string): void },
): Logger =>
  pino(
    {
      level: config.logLevel,
      base: { service: 'keyward-api' },
      // Every line written while a request runs names it (the response's X-Request-Id).
      mixin: () => {
        const scope = requestScope.getStore()
        return scope ? { requestId: scope.requestId } : {}
      },
      // Belt and braces: nothing the core logs carries these, and plugins must not either.
      redact: {
        paths: [
          '*.password',
          '*.token',
          '*.cookie',
          '*.authorization',
          '*.privateKey',
          '*.armored_key',
        ],
        censor: '[redacted]',
      },
    },
    destination as never,
  )

export interface BootOptions {
  config: ServerConfig
  plugins: readonly Plugin[]
  logger?: Logger
  /** Apply pending migrations. @default true */
  migrate?: boolean
  /** Timing of the mail queue's retries and polls. @default see MailSenderOptions */
  mailQueue?: MailerOptions['queue']
}

export const bootApp = async (options: BootOptions): Promise<AppContext> => {
  const { config } = options
  const logger = options.logger ?? createLogger(config)
  const plugins = assemblePlugins(options.plugins, config.disabledPlugins)
  const database = await openDatabase(config, logger)
  try {
    const orm = await createOrm({
      url: database.url,
      // Every plugin's, enabled or not, as with migrations: a plugin may read and clean up a
      // disabled plugin's data (see `Plugin.reads`).
      entities: options.plugins.flatMap((p) => p.entities ?? []),
      migrations: allMigrations(options.plugins),
      logger,
    })
    try {
      if (options.migrate !== false) {
        const applied = await migrate(orm)
        if (applied.length) logger.info({ migrations: applied }, 'migrations applied')
      }
      const serverKey = await loadServerKey(config, logger)
      const app: AppContext = {
        config,
        logger,
        orm,
        database,
        serverKey,
        plugins,
        // Set just below: the mailer asks the plugins, which need the app.
        mailer: undefined as unknown as Mailer,
        pluginState: new Map(),
        changes: new ChangeFeed(database.url, logger),
        throttle: new Throttle(orm),
        jobs: undefined as unknown as JobScheduler,
        metrics: createMetrics(orm),
      }
      app.jobs = new JobScheduler(app)
      app.mailer = createMailer(config, logger, {
        orm,
        policy: mailPolicy(app),
        queue: options.mailQueue,
      })
      await app.changes.start()
      const started: Plugin[] = []
      try {
        for (const plugin of plugins) {
          await plugin.init?.(app)
          started.push(plugin)
        }
      } catch (error) {
        for (const plugin of started.reverse()) await plugin.shutdown?.(app).catch(() => {})
        await app.changes.stop()
        throw error
      }
      app.mailer.start(app.changes)
      app.jobs.start()
      return app
    } catch (error) {
      await orm.close()
      throw error
    }
  } catch (error) {
    await database.stop()
    throw error
  }
}

export const shutdownApp = async (app: AppContext): Promise<void> => {
  // Before the plugins go: sending asks them for the SMTP server, jobs are theirs.
  await app.jobs.stop()
  await app.mailer.stop()
  for (const plugin of [...app.plugins].reverse()) await plugin.shutdown?.(app)
  await app.changes.stop()
  await app.orm.close()
  await app.database.stop()
}
