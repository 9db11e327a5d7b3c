// The database as COPY text, one file a table: read in one repeatable-read transaction (a
// consistent picture while the server keeps writing), and loaded back parents first. COPY runs
// over PostgreSQL's own protocol through the pg driver, so it works with any server version the
// driver speaks to (the embedded PostgreSQL and a packaged one alike), with no pg_dump needed.
import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type pg from 'pg'
import { from as copyFrom, to as copyTo } from 'pg-copy-streams'
import { MIGRATIONS_TABLE } from './format.ts'

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`

export interface TableDump {
  name: string
  columns: string[]
  rows: number
  data: Buffer
}

/**
 * The public tables and the columns they store, in column order. Generated columns (documents
 * PostgreSQL keeps ready) are left out: the restore writes them again from the rest of the row.
 */
const tablesOf = async (client: pg.ClientBase) => {
  const { rows } = await client.query<{ table_name: string; columns: string[] }>(
    `select c.table_name, array_agg(c.column_name::text order by c.ordinal_position) as columns
       from information_schema.columns c
       join information_schema.tables t
         on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
        and c.is_generated = 'NEVER'
      group by c.table_name order by c.table_name`,
  )
  return rows.map((row) => ({ name: row.table_name, columns: row.columns }))
}

const copyOut = async (client: pg.ClientBase, table: string, columns: string[]) => {
  const chunks: Buffer[] = []
  await pipeline(
    client.query(
      copyTo(`copy public.${ident(table)} (${columns.map(ident).join(', ')}) to stdout`),
    ),
    new Writable({
      write(chunk, _encoding, done) {
        chunks.push(chunk)
        done()
      },
    }),
  )
  return Buffer.concat(chunks)
}

/** Rows end with a newline in COPY text; newlines inside values are escaped. */
export const countRows = (data: Buffer) => {
  let rows = 0
  for (const byte of data) if (byte === 0x0a) rows++
  return rows
}

export interface Snapshot {
  migrations: string[]
  tables: TableDump[]
}

/**
 * Every public table's rows and the applied migrations as of one moment: one read-only,
 * repeatable-read transaction sees every table as they were when its first statement ran.
 */
export const snapshotDatabase = async (client: pg.ClientBase): Promise<Snapshot> => {
  await client.query('begin isolation level repeatable read read only')
  try {
    const tables = await tablesOf(client)
    const migrations = tables.some((table) => table.name === MIGRATIONS_TABLE)
      ? (
          await client.query<{ name: string }>(
            `select name from public.${MIGRATIONS_TABLE} order by id`,
          )
        ).rows.map((row) => row.name.replace(/\.[jt]s$/, ''))
      : []
    const dumps: TableDump[] = []
    for (const table of tables) {
      if (table.name === MIGRATIONS_TABLE) continue
      const data = await copyOut(client, table.name, table.columns)
      dumps.push({ ...table, rows: countRows(data), data })
    }
    await client.query('commit')
    return { migrations, tables: dumps }
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  }
}

/** Whether the database holds anything but an empty migrations table. */
export const databaseIsEmpty = async (client: pg.ClientBase) => {
  const tables = await tablesOf(client)
  for (const table of tables) {
    if (table.name !== MIGRATIONS_TABLE) return false
    const { rows } = await client.query(`select 1 from public.${MIGRATIONS_TABLE} limit 1`)
    if (rows.length) return false
  }
  return true
}

/** Tables ordered so that each comes after every table its foreign keys point to. */
const parentsFirst = async (client: pg.ClientBase, tables: string[]) => {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `select cl.relname as child, pl.relname as parent
       from pg_constraint c
       join pg_class cl on cl.oid = c.conrelid
       join pg_class pl on pl.oid = c.confrelid
       join pg_namespace n on n.oid = cl.relnamespace
      where c.contype = 'f' and n.nspname = 'public'`,
  )
  const parents = new Map<string, Set<string>>(tables.map((table) => [table, new Set()]))
  for (const { child, parent } of rows)
    if (child !== parent && parents.has(child) && parents.has(parent))
      parents.get(child)?.add(parent)
  const ordered: string[] = []
  const placed = new Set<string>()
  while (ordered.length < tables.length) {
    const ready = tables.filter(
      (table) => !placed.has(table) && [...(parents.get(table) ?? [])].every((p) => placed.has(p)),
    )
    // Foreign keys in a cycle: left in name order, and PostgreSQL says which row breaks.
    const next = ready.length ? ready : tables.filter((table) => !placed.has(table))
    for (const table of next) {
      placed.add(table)
      ordered.push(table)
    }
  }
  return ordered
}

/**
 * Replaces the rows of the given tables by the archive's (the migrations may have seeded some),
 * on `client`'s open transaction, then moves each column sequence past the highest value.
 */
export const loadTables = async (
  client: pg.ClientBase,
  tables: readonly { name: string; columns: string[]; data: Buffer }[],
) => {
  const existing = new Set((await tablesOf(client)).map((table) => table.name))
  for (const table of tables)
    if (!existing.has(table.name))
      throw new Error(`table ${table.name} of the archive is not in the migrated schema`)
  const data = new Map(tables.map((table) => [table.name, table]))
  const targets = [...existing].filter((table) => table !== MIGRATIONS_TABLE)
  if (targets.length) await client.query(`truncate ${targets.map(ident).join(', ')}`)
  for (const name of await parentsFirst(client, [...data.keys()])) {
    const table = data.get(name)
    if (!table || table.data.length === 0) continue
    const sink = client.query(
      copyFrom(`copy public.${ident(name)} (${table.columns.map(ident).join(', ')}) from stdin`),
    )
    await new Promise<void>((resolve, reject) => {
      sink.once('error', reject)
      sink.once('finish', resolve)
      sink.end(table.data)
    })
  }
  const { rows: sequences } = await client.query<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns
      where table_schema = 'public' and table_name <> $1
        and (column_default like 'nextval(%' or is_identity = 'YES')`,
    [MIGRATIONS_TABLE],
  )
  for (const { table_name, column_name } of sequences)
    await client.query(
      `select setval(pg_get_serial_sequence($1, $2), coalesce(max(${ident(column_name)}), 0) + 1, false)
         from public.${ident(table_name)}`,
      [`public.${ident(table_name)}`, column_name],
    )
}
