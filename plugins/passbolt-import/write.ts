// Writes a plan into an empty Keyward database, every table in one transaction: a failure
// half-way leaves the target as empty as it was.
import type { EntityManager } from '@mikro-orm/postgresql'
import { executeStatement, selectRows } from '../../api/orm.ts'
import type { ImportPlan, TargetReferences } from './plan.ts'
import { SOURCE_TABLES, type SourceTable } from './source.ts'

/** Tables whose rows make an organisation: any of them filled means the target is in use. */
const DATA_TABLES = ['users', 'groups', 'resources', 'folders', 'secrets', 'permissions'] as const

export class TargetNotEmptyError extends Error {
  override name = 'TargetNotEmptyError'
}

const count = async (em: EntityManager, table: string): Promise<number> => {
  const [row] = await selectRows<{ n: string | number }>(em, (knex) =>
    knex(table).count({ n: '*' }),
  )
  return Number(row?.n ?? 0)
}

/** Refuses a target that already holds an organisation's data, naming the tables. */
export const assertEmptyTarget = async (em: EntityManager) => {
  const filled: string[] = []
  for (const table of DATA_TABLES) {
    const n = await count(em, table)
    if (n > 0) filled.push(`${table} (${n})`)
  }
  if (filled.length)
    throw new TargetNotEmptyError(
      `the Keyward database is not empty: ${filled.join(', ')}; migrate into a new database`,
    )
}

export const targetReferences = async (em: EntityManager): Promise<TargetReferences> => {
  const roles = await selectRows<{ id: string; name: string }>(em, (knex) =>
    knex('roles').select('id', 'name'),
  )
  const types = await selectRows<{ id: string; slug: string }>(em, (knex) =>
    knex('resource_types').select('id', 'slug'),
  )
  const uiActions = await selectRows<{ id: string; name: string }>(em, (knex) =>
    knex('ui_actions').select('id', 'name'),
  )
  return {
    roles: new Map(roles.map((role) => [role.name, role.id])),
    resourceTypes: new Map(types.map((type) => [type.slug, type.id])),
    uiActions: new Map(uiActions.map((action) => [action.name, action.id])),
  }
}

const BATCH = 500

/**
 * Rows an empty Keyward already has and an imported row replaces: the built-in roles' default UI
 * rights, and settings a first start may have written.
 */
const REPLACES: Partial<Record<SourceTable, string[]>> = {
  rbacs: ['role_id', 'foreign_model', 'foreign_id'],
  organization_settings: ['property'],
}

/** Inserts the plan's rows; call inside the transaction that checked the target is empty. */
export const writePlan = async (
  em: EntityManager,
  plan: ImportPlan,
  onTable: (table: SourceTable, written: number) => void = () => {},
) => {
  for (const table of SOURCE_TABLES) {
    const rows = plan.rows[table]
    const conflict = REPLACES[table]
    for (let start = 0; start < rows.length; start += BATCH) {
      const batch = rows.slice(start, start + BATCH)
      await executeStatement(em, (knex) =>
        conflict
          ? knex(table).insert(batch).onConflict(conflict).merge()
          : knex(table).insert(batch),
      )
    }
    onTable(table, rows.length)
  }
}

/** Rows per table in the target, to set beside the source's. */
export const targetCounts = async (em: EntityManager): Promise<Record<SourceTable, number>> => {
  const counts = {} as Record<SourceTable, number>
  for (const table of SOURCE_TABLES) counts[table] = await count(em, table)
  return counts
}
