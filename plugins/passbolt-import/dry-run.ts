// A dry run sees the target as the real run would, migrated, without changing it: the pending
// migrations run inside a transaction that is rolled back, PostgreSQL's DDL being transactional.
import type { MigrationObject } from '@mikro-orm/core'
import type { Migration } from '@mikro-orm/migrations'
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import { selectRows } from '../../api/orm.ts'

class RolledBack extends Error {}

const appliedMigrations = async (em: EntityManager): Promise<Set<string>> => {
  const [table] = await selectRows<{ found: string | null }>(em, (knex) =>
    knex.select(knex.raw("to_regclass('mikro_orm_migrations')::text as found")),
  )
  if (!table?.found) return new Set()
  const rows = await selectRows<{ name: string }>(em, (knex) =>
    knex('mikro_orm_migrations').select('name'),
  )
  return new Set(rows.map((row) => row.name.replace(/\.[jt]s$/, '')))
}

/** Runs `read` against the migrated target, then rolls every change back. */
export const withMigratedTarget = async <T>(
  orm: MikroORM,
  read: (em: EntityManager) => Promise<T>,
): Promise<T> => {
  const migrations = (orm.config.get('migrations').migrationsList ?? []) as MigrationObject[]
  const driver = orm.em.getDriver()
  let result: T | undefined
  try {
    await orm.em.fork().transactional(async (em) => {
      const applied = await appliedMigrations(em)
      const context = em.getTransactionContext()
      for (const entry of migrations) {
        if (applied.has(entry.name)) continue
        const migration = new (entry.class as unknown as new (...args: unknown[]) => Migration)(
          driver,
          orm.config,
        )
        migration.setTransactionContext(context)
        await migration.up()
        for (const sql of migration.getQueries())
          await driver.execute(sql as string, [], 'all', context)
      }
      result = await read(em)
      throw new RolledBack()
    })
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error
  }
  return result as T
}
