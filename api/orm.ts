// MikroORM on PostgreSQL: the shared entity fields, ORM start-up and the migrator.
import { randomUUID } from 'node:crypto'
import { defineEntity, type EntitySchema } from '@mikro-orm/core'
import { type Migration, Migrator } from '@mikro-orm/migrations'
import { type EntityManager, type Knex, MikroORM, PostgreSqlDriver } from '@mikro-orm/postgresql'
import type { Logger } from 'pino'
import { UNSTORABLE_TEXT } from './db/errors.ts'
import { recordFailedStatements } from './db/failed-statement.ts'
import { messages } from './errors.ts'
import { migrationsList as coreMigrations } from './migrations/index.ts'
import { backgroundWork } from './request-scope.ts'

const p = defineEntity.properties

/** id, created and modified, as every passbolt table has them. */
export const baseProperties = {
  id: p
    .uuid()
    .primary()
    .onCreate(() => randomUUID()),
  created: p.datetime().onCreate(() => new Date()),
  modified: p
    .datetime()
    .onCreate(() => new Date())
    .onUpdate(() => new Date()),
}

// biome-ignore lint/suspicious/noExplicitAny: a list of schemas of different entity types
export type AnyEntitySchema = EntitySchema<any, any>

/**
 * A timestamp from a query-builder row: the ORM's connection hands them over as strings, which
 * only entity hydration turns into dates.
 */
export const toDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(value as string)

/**
 * Rows of a query built with the query builder and run by `em`, so inside its transaction when
 * it has one (a query run on the bare connection would escape it).
 */
export const selectRows = <T>(
  em: EntityManager,
  build: (knex: Knex) => Knex.QueryBuilder,
): Promise<T[]> => em.execute<T[]>(build(em.getKnex()) as never)

export { openRowCursor, type RowCursor } from './db/row-cursor.ts'

/**
 * Rows of a SQL statement with named bindings (`:name`), for set logic the builder would only
 * obscure; run through `em` like `selectRows`. Never put a value into `sql` itself.
 */
export const selectSql = <T>(
  em: EntityManager,
  sql: string,
  bindings: Record<string, unknown>,
): Promise<T[]> => em.execute<T[]>(em.getKnex().raw(sql, bindings as never) as never)

/**
 * Runs a statement built with the query builder (insert, update, delete) through `em`, inside
 * its transaction when it has one; returns how many rows it touched.
 */
export const executeStatement = async (
  em: EntityManager,
  build: (knex: Knex) => Knex.QueryBuilder,
): Promise<number> => {
  const result = await em.execute<{ affectedRows: number }>(build(em.getKnex()) as never, [], 'run')
  return result.affectedRows
}

/**
 * Calls `listener` for every SQL statement the ORM sends, transactions included, but those of
 * the process's own background work (mail queue, periodic jobs).
 */
export const onQuery = (orm: MikroORM, listener: (sql: string) => void): (() => void) => {
  const knex = orm.em.getKnex()
  const handler = (query: { sql: string }) => {
    if (!backgroundWork.getStore()) listener(query.sql)
  }
  knex.on('query', handler)
  return () => knex.off('query', handler)
}

/** One migration: its name (which orders it) and its class. */
export interface MigrationEntry {
  name: string
  class: new (...args: never[]) => Migration
}

/**
 * The core's migrations and those of every plugin given, in name order: each name starts with
 * its timestamp, so a plugin's table is created after the core tables it refers to.
 */
export const allMigrations = (
  plugins: readonly { migrations?: readonly MigrationEntry[] }[],
): MigrationEntry[] => {
  const all = [...coreMigrations, ...plugins.flatMap((plugin) => plugin.migrations ?? [])]
  const names = new Set<string>()
  for (const migration of all) {
    if (names.has(migration.name)) throw new Error(`two migrations are named ${migration.name}`)
    names.add(migration.name)
  }
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

export interface OrmOptions {
  url: string
  entities: readonly AnyEntitySchema[]
  /** Every migration, core and plugins (`allMigrations`). @default the core's alone */
  migrations?: readonly MigrationEntry[]
  logger?: Logger
  /** @default 10 */
  poolSize?: number
}

export const createOrm = async (options: OrmOptions): Promise<MikroORM> => {
  const orm = await MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl: options.url,
    entities: [...options.entities],
    discovery: { warnWhenNoEntities: false },
    extensions: [Migrator],
    migrations: {
      migrationsList: [...(options.migrations ?? coreMigrations)] as never,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
    },
    // Each request works on its own fork; the global EntityManager is never used directly.
    allowGlobalContext: false,
    pool: {
      min: 0,
      max: options.poolSize ?? 10,
      // Timestamps come back as text in UTC, which the API formats by cutting the string. JIT
      // compilation is off: the long lists' statements cost enough for PostgreSQL to compile
      // them, which took longer (over 200 ms for 10,000 passwords) than running them.
      afterCreate: (
        connection: { query(sql: string, done: (error: Error | null) => void): void },
        done: (error: Error | null, connection: unknown) => void,
      ) =>
        connection.query("set time zone 'UTC'; set jit = off", (error) => done(error, connection)),
    },
    debug: false,
    logger: (message) => options.logger?.debug({ orm: message }, 'orm'),
    onQuery: refuseUnstorableText,
  })
  recordFailedStatements(orm)
  return orm
}

/**
 * The last line of defence behind the routes' schemas: a value holding U+0000 never reaches a
 * statement. PostgreSQL cannot store it in text, and the ORM writes values into the statement's
 * text, where it breaks the statement (the server drops it as a protocol violation): a 400, not
 * a 500.
 */
const refuseUnstorableText = (sql: string, params: readonly unknown[]): string => {
  for (const value of params)
    if (typeof value === 'string' && value.includes('\u0000'))
      // PostgreSQL's own code for text it cannot store; the ORM wraps what this throws, and the
      // code survives the wrapping to become the 400 (api/db/errors.ts).
      throw Object.assign(new Error(messages.nulCharacter), { code: UNSTORABLE_TEXT })
  return sql
}

/**
 * Key of the PostgreSQL advisory lock held while migrations run (any fixed 64-bit number; this
 * one spells "keyward" in ASCII).
 */
export const MIGRATION_LOCK = '30229394876363364'

/**
 * Applies pending migrations; returns the names applied. Processes starting together (several
 * hosts or workers on one database) take turns on a session advisory lock, held on a connection
 * of its own: each one then reads the pending list after the previous one finished, so every
 * migration runs once.
 */
export const migrate = async (orm: MikroORM): Promise<string[]> => {
  const { default: pg } = await import('pg')
  const lock = new pg.Client({ connectionString: orm.config.get('clientUrl') })
  await lock.connect()
  try {
    await lock.query('select pg_advisory_lock($1::bigint)', [MIGRATION_LOCK])
    const applied = await orm.getMigrator().up()
    return applied.map((migration) => migration.name)
  } finally {
    // Ending the session releases the lock, also when the unlock itself cannot be sent.
    await lock.query('select pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK]).catch(() => {})
    await lock.end().catch(() => {})
  }
}

export interface MigrationStatus {
  applied: { name: string; executedAt: Date }[]
  pending: string[]
}

/** Which migrations the database has, and which this release would still apply. */
export const migrationStatus = async (orm: MikroORM): Promise<MigrationStatus> => {
  const migrator = orm.getMigrator()
  const applied = await migrator.getExecutedMigrations()
  const pending = await migrator.getPendingMigrations()
  return {
    applied: applied.map((row) => ({
      name: row.name.replace(/\.[jt]s$/, ''),
      executedAt: new Date(row.executed_at),
    })),
    pending: pending.map((row) => row.name.replace(/\.[jt]s$/, '')),
  }
}
