// The `api` command line: start, migrate, openapi, and the commands plugins add.
import cluster from 'node:cluster'
import { Command, InvalidArgumentError } from 'commander'
import { plugins as availablePlugins } from '../plugins/index.ts'
import { bootApp, createLogger, shutdownApp } from './app.ts'
import { registerBackupCommands } from './backup/commands.ts'
import { BackupError } from './backup/format.ts'
import { ConfigError, loadConfig } from './config.ts'
import { openDatabase } from './database.ts'
import { KeyFileError } from './key-file.ts'
import { buildOpenApi } from './openapi.ts'
import { allMigrations, createOrm, migrate, migrationStatus } from './orm.ts'
import type { WithApp } from './plugin.ts'
import { assemblePlugins, PluginError } from './plugin-loader.ts'
import { listen, readTlsFiles, TlsFilesError } from './server.ts'
import { ServerKeyError } from './server-key.ts'
import { KEYWARD_VERSION } from './version.ts'
import { isWorkerProcess, runPrimary } from './workers.ts'

const port = (value: string): number => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('must be a port number (0-65535).')
  return n
}

const workerCount = (value: string): number => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new InvalidArgumentError('must be a whole number from 1 to 256.')
  return n
}

interface StartOptions {
  port?: number
  host?: string
  tlsCert?: string
  tlsKey?: string
  workers?: number
}

const start = async (options: StartOptions) => {
  const config = loadConfig({
    overrides: {
      port: options.port,
      host: options.host,
      tlsCert: options.tlsCert,
      tlsKey: options.tlsKey,
    },
  })
  // Unreadable certificate files stop the start before the database is touched.
  const tls =
    config.tlsCert && config.tlsKey ? { cert: config.tlsCert, key: config.tlsKey } : undefined
  if (tls) readTlsFiles(tls)
  if ((options.workers ?? 1) > 1 && !isWorkerProcess()) {
    // `systemctl reload` signals the primary: each worker reads the renewed certificate (and a
    // SIGHUP must not end the primary, as it would by default).
    process.on('SIGHUP', () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGHUP')
    })
    return runPrimary({ config, plugins: availablePlugins, workers: options.workers! })
  }
  // A worker's primary has migrated already.
  const app = await bootApp({ config, plugins: availablePlugins, migrate: !isWorkerProcess() })
  let running: Awaited<ReturnType<typeof listen>>
  try {
    running = await listen(app, config.port, config.host, { tls })
  } catch (error) {
    // A taken port must not leave the embedded database running.
    await shutdownApp(app)
    throw error
  }
  if (!isWorkerProcess())
    console.log(
      `Keyward API listening on ${running.url}/ (database: ${app.database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'})`,
    )
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    app.logger.info({ signal }, 'shutting down')
    await running.close()
    await shutdownApp(app)
    process.exit(0)
  }
  process.once('SIGINT', () => void stop('SIGINT'))
  process.once('SIGTERM', () => void stop('SIGTERM'))
  // certbot and the like renew the files, then send SIGHUP (systemctl reload): new
  // connections get the new certificate, open ones keep theirs.
  process.on('SIGHUP', () => {
    if (!tls) return
    try {
      running.reloadCertificates()
      app.logger.info('TLS certificate reloaded')
    } catch (error) {
      app.logger.error({ err: (error as Error).message }, 'TLS certificate not reloaded')
    }
  })
}

const runMigrations = async (options: { status?: boolean }) => {
  const config = loadConfig()
  const logger = createLogger(config)
  const database = await openDatabase(config, logger)
  try {
    const orm = await createOrm({
      url: database.url,
      entities: availablePlugins.flatMap((p) => p.entities ?? []),
      migrations: allMigrations(availablePlugins),
    })
    try {
      if (options.status) {
        const { applied, pending } = await migrationStatus(orm)
        for (const migration of applied)
          console.log(`applied  ${migration.name}  ${migration.executedAt.toISOString()}`)
        for (const name of pending) console.log(`pending  ${name}`)
        console.log(
          pending.length
            ? `${pending.length} pending migration(s): run \`api migrate\` (or start the server)`
            : 'the database is up to date',
        )
        return
      }
      const applied = await migrate(orm)
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date')
    } finally {
      await orm.close()
    }
  } finally {
    await database.stop()
  }
}

export const createProgram = () => {
  const program = new Command('api')
    .description('The Keyward API server (passbolt API v5 compatible).')
    .showHelpAfterError()
  program
    .command('start')
    .description('apply migrations, then serve (embedded PostgreSQL when DATABASE_URL is unset)')
    .option('-p, --port <n>', 'port to listen on (default: 8080, or KEYWARD_PORT)', port)
    .option('--host <host>', 'address to listen on (default: 127.0.0.1, or KEYWARD_HOST)')
    .option(
      '--workers <n>',
      'processes serving the port together, replaced when one dies (default: 1)',
      workerCount,
    )
    .option(
      '--tls-cert <file>',
      'serve HTTPS with this PEM certificate chain (or KEYWARD_TLS_CERT)',
    )
    .option('--tls-key <file>', 'the PEM private key of --tls-cert (or KEYWARD_TLS_KEY)')
    .action(start)
  program
    .command('migrate')
    .description('apply pending database migrations (one process at a time: others wait)')
    .option('--status', 'list applied and pending migrations; change nothing')
    .action(runMigrations)
  program
    .command('openapi')
    .description('print the OpenAPI 3.1 document of the enabled plugins')
    .action(() => {
      const config = loadConfig()
      console.log(
        JSON.stringify(
          buildOpenApi(assemblePlugins(availablePlugins, config.disabledPlugins)),
          null,
          2,
        ),
      )
    })
  const withApp: WithApp = async (work, options = {}) => {
    const config = loadConfig()
    const app = await bootApp({
      config,
      plugins: availablePlugins,
      migrate: options.migrate,
      logger: createLogger({ logLevel: 'warn' }),
    })
    try {
      return await work(app)
    } finally {
      await shutdownApp(app)
    }
  }
  registerBackupCommands(program, availablePlugins, KEYWARD_VERSION.number)
  for (const plugin of availablePlugins) plugin.commands?.(program, withApp)
  return program
}

export const main = async (argv: string[]) => {
  try {
    await createProgram().parseAsync(argv)
  } catch (error) {
    const expected =
      error instanceof ConfigError ||
      error instanceof PluginError ||
      error instanceof ServerKeyError ||
      error instanceof KeyFileError ||
      error instanceof TlsFilesError ||
      error instanceof BackupError
    console.error(
      expected
        ? (error as Error).message
        : `error: ${error instanceof Error ? error.message : String(error)}`,
    )
    process.exit(1)
  }
}
