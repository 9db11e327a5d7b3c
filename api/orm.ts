// MikroORM on PostgreSQL: the shared entity fields, ORM start-up and the migrator.
import { randomUUID } from 'node:crypto'
import { defineEntity, type EntitySchema } from '@mikro-orm/core'
import { Migrator } from '@mikro-orm/migrations'
import { type EntityManager, type Knex, MikroORM, PostgreSqlDriver } from '@mikro-orm/postgresql'
import type { Logger } from 'pino'
import { migrationsList } from './migrations/index.ts'

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

/** Calls `listener` for every SQL statement the ORM sends, transactions included. */
export const onQuery = (orm: MikroORM, listener: (sql: string) => void): (() => void) => {
  const knex = orm.em.getKnex()
  const handler = (query: { sql: string }) => listener(query.sql)
  knex.on('query', handler)
  return () => knex.off('query', handler)
}

export interface OrmOptions {
  url: string
  entities: readonly AnyEntitySchema[]
  logger?: Logger
  /** @default 10 */
  poolSize?: number
}

export const createOrm = (options: OrmOptions): Promise<MikroORM> =>
  MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl: options.url,
    entities: [...options.entities],
    discovery: { warnWhenNoEntities: false },
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
    // Each request works on its own fork; the global EntityManager is never used directly.
    allowGlobalContext: false,
    pool: {
      min: 0,
      max: options.poolSize ?? 10,
      // Timestamps come back as text in UTC, which the API formats by cutting the string.
      afterCreate: (
        connection: { query(sql: string, done: (error: Error | null) => void): void },
        done: (error: Error | null, connection: unknown) => void,
      ) => connection.query("set time zone 'UTC'", (error) => done(error, connection)),
    },
    debug: false,
    logger: (message) => options.logger?.debug({ orm: message }, 'orm'),
  })

/** Applies pending migrations; returns the names applied. */
export const migrate = async (orm: MikroORM): Promise<string[]> => {
  const applied = await orm.getMigrator().up()
  return applied.map((migration) => migration.name)
}
