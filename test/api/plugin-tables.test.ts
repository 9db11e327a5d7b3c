// Plugins own their data: every table of the schema belongs to exactly one plugin (its entities'
// tables and the ones it declares in `tables` and `views`), and a plugin's SQL names only tables
// it owns, that a plugin it depends on or reads owns, or views another plugin declares. The
// released migrations in api/migrations create tables for many plugins; this is where their
// owners are named.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import pg from 'pg'
import { allMigrations, createOrm, migrate } from '../../api/orm.ts'
import type { Plugin } from '../../api/plugin.ts'
import { plugins } from '../../plugins/index.ts'
import { CORE_TABLES } from '../helpers/core-tables.ts'
import { createTestDatabase } from '../helpers/database.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** Tables the core keeps for itself: migrations, throttles, the mail queue, scheduled jobs. */

const tablesOf = (plugin: Plugin) => [
  ...(plugin.entities ?? []).map(
    (entity) => (entity as unknown as { meta: { tableName: string } }).meta.tableName,
  ),
  ...(plugin.tables ?? []),
  ...(plugin.views ?? []),
]

/** Views are their owner's interface: any plugin may read them. */
const views = new Set(plugins.flatMap((plugin) => plugin.views ?? []))

const owners = new Map<string, string[]>()
for (const plugin of plugins)
  for (const table of tablesOf(plugin))
    owners.set(table, [...(owners.get(table) ?? []), plugin.name])

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sources(path)
    return path.endsWith('.ts') ? [path] : []
  })

/** Table names in query-builder calls and in raw SQL. */
const namedTables = (text: string, tables: readonly string[]) => {
  const names = tables.join('|')
  const pattern = new RegExp(
    `(?:\\b(?:knex|from|join|leftJoin|innerJoin|rightJoin|into|table|with)\\(\\s*|\\b(?:from|join|into|update|table)\\s+)['"\`]?(${names})\\b`,
    'gi',
  )
  return new Set([...text.matchAll(pattern)].map((match) => match[1].toLowerCase()))
}

test('every table of the schema has exactly one owner', async (t) => {
  const url = await createTestDatabase(t)
  const orm = await createOrm({ url, entities: [], migrations: allMigrations(plugins) })
  t.teardown(() => orm.close())
  await migrate(orm)
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  t.teardown(() => client.end())
  const { rows } = await client.query(
    "select table_name from information_schema.tables where table_schema = 'public' order by 1",
  )
  const problems: string[] = []
  for (const { table_name: table } of rows) {
    if (CORE_TABLES.includes(table)) continue
    const owner = owners.get(table) ?? []
    if (owner.length !== 1) problems.push(`${table}: owned by ${owner.join(', ') || 'no plugin'}`)
  }
  for (const table of owners.keys())
    if (!rows.some((row) => row.table_name === table))
      problems.push(`${table}: declared but no migration creates it`)
  t.deepEqual(problems, [])
})

test('a plugin’s SQL names only its own tables and those of plugins it depends on or reads', (t) => {
  const tables = [...owners.keys()]
  const crossings = new Map<string, string[]>()
  for (const plugin of plugins) {
    const allowed = new Set([plugin.name, ...(plugin.dependsOn ?? []), ...(plugin.reads ?? [])])
    for (const file of sources(join(root, 'plugins', plugin.name)))
      for (const table of namedTables(readFileSync(file, 'utf8'), tables)) {
        const owner = owners.get(table)?.[0] ?? ''
        if (allowed.has(owner) || views.has(table)) continue
        const key = `${plugin.name} -> ${table}`
        crossings.set(key, [...(crossings.get(key) ?? []), relative(root, file)])
      }
  }
  t.deepEqual(
    [...crossings].map(([key, files]) => `${key} (${files.join(', ')})`),
    [],
    'read these tables through their owner’s exported functions or views, or declare the owner in `reads`',
  )
})

test('the check sees a table named in the query builder and in raw SQL', (t) => {
  const tables = ['groups', 'groups_users', 'resources']
  t.deepEqual([...namedTables("knex('groups_users').join('groups', 'a', 'b')", tables)].sort(), [
    'groups',
    'groups_users',
  ])
  t.deepEqual([...namedTables('select 1 from resources r where true', tables)], ['resources'])
  t.deepEqual([...namedTables("const groups = 'x'; resources.map()", tables)], [])
})
