// The `api` command line: start, migrate, openapi, and the commands plugins add.
import { Command, InvalidArgumentError } from 'commander'
import { plugins as availablePlugins } from '../plugins/index.ts'
import { bootApp, createLogger, shutdownApp } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'
import { openDatabase } from './database.ts'
import { buildOpenApi } from './openapi.ts'
import { createOrm, migrate } from './orm.ts'
import type { WithApp } from './plugin.ts'
import { assemblePlugins, PluginError } from './plugin-loader.ts'
import { listen } from './server.ts'
import { ServerKeyError } from './server-key.ts'

const port = (value: string): number => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('must be a port number (0-65535).')
  return n
}

const start = async (options: { port?: number; host?: string }) => {
  const config = loadConfig({ overrides: { port: options.port, host: options.host } })
  const app = await bootApp({ config, plugins: availablePlugins })
  let running: Awaited<ReturnType<typeof listen>>
  try {
    running = await listen(app, config.port, config.host)
  } catch (error) {
    // A taken port must not leave the embedded database running.
    await shutdownApp(app)
    throw error
  }
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
}

const runMigrations = async () => {
  const config = loadConfig()
  const logger = createLogger(config)
  const database = await openDatabase(config, logger)
  try {
    const orm = await createOrm({
      url: database.url,
      entities: assemblePlugins(availablePlugins, config.disabledPlugins).flatMap(
        (p) => p.entities ?? [],
      ),
    })
    try {
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
    .action(start)
  program.command('migrate').description('apply pending database migrations').action(runMigrations)
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
      error instanceof ServerKeyError
    console.error(
      expected
        ? (error as Error).message
        : `error: ${error instanceof Error ? error.message : String(error)}`,
    )
    process.exit(1)
  }
}
