// Reads a passbolt CE database (MariaDB or MySQL) in one consistent snapshot, so that rows
// written while the export runs cannot leave a secret without its resource.
import mysql from 'mysql2/promise'

/** The tables this command moves, in the order their references need. */
export const SOURCE_TABLES = [
  'roles',
  'users',
  'profiles',
  'gpgkeys',
  'groups',
  'groups_users',
  'metadata_keys',
  'metadata_private_keys',
  'metadata_session_keys',
  'resource_types',
  'resources',
  'secrets',
  'permissions',
  'folders',
  'folders_relations',
  'favorites',
  'comments',
  'tags',
  'resources_tags',
  'avatars',
  'organization_settings',
  'account_settings',
  'ui_actions',
  'rbacs',
] as const

/**
 * Tables a 4.x database may lack: encrypted metadata came in 4.10, roles' UI rights in 4.1.
 * Read as empty when absent; any other table missing means the source is not passbolt.
 */
const NOT_IN_4_0: readonly SourceTable[] = [
  'metadata_keys',
  'metadata_private_keys',
  'metadata_session_keys',
  'ui_actions',
  'rbacs',
]

export type SourceTable = (typeof SOURCE_TABLES)[number]
export type SourceRow = Record<string, unknown>
export type SourceData = Record<SourceTable, SourceRow[]>

/**
 * The schema range this command knows: from passbolt 4.0's schema to the newest migration of
 * passbolt 5.12. An older database must be upgraded by passbolt first; a newer one may hold
 * columns this command would silently lose.
 */
const OLDEST_KNOWN = '20230418103007'
const NEWEST_KNOWN = '20260504120000'

export class SourceSchemaError extends Error {
  override name = 'SourceSchemaError'
}

/** `V5120AddStandalone…` → `5.12.0`: passbolt names each migration after its release. */
export const releaseOf = (migrationName: string): string => {
  const digits = /^V(\d+)/.exec(migrationName)?.[1]
  if (!digits || digits.length < 3) return 'unknown'
  return `${digits[0]}.${digits.slice(1, -1)}.${digits.at(-1)}`
}

export interface SchemaVersion {
  version: string
  migrationName: string
  release: string
}

export const checkSchema = (latest: SchemaVersion | undefined): SchemaVersion => {
  if (!latest)
    throw new SourceSchemaError('the source holds no passbolt migrations (phinxlog is empty)')
  const named = `migration ${latest.version} ${latest.migrationName} (passbolt ${latest.release})`
  if (latest.version < OLDEST_KNOWN)
    throw new SourceSchemaError(
      `the source passbolt schema is at ${named}: upgrade passbolt to 4.0 or newer first`,
    )
  if (latest.version > NEWEST_KNOWN)
    throw new SourceSchemaError(
      `the source passbolt schema is at ${named}, newer than this command knows (up to passbolt 5.12)`,
    )
  return latest
}

/** Reads every table in one snapshot; returns the rows and the schema version found. */
export const readSource = async (
  url: string,
  onTable: (table: SourceTable, rows: number) => void = () => {},
): Promise<{ schema: SchemaVersion; data: SourceData }> => {
  // passbolt writes its datetimes in UTC; booleans are tinyint(1) and come back as numbers.
  const connection = await mysql.createConnection({ uri: url, timezone: 'Z', dateStrings: false })
  try {
    await connection.query('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ')
    await connection.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY')
    let latest: SchemaVersion | undefined
    try {
      const [rows] = await connection.query(
        'SELECT version, migration_name FROM phinxlog ORDER BY version DESC LIMIT 1',
      )
      const row = (rows as { version: unknown; migration_name: string }[])[0]
      if (row)
        latest = {
          version: String(row.version),
          migrationName: row.migration_name,
          release: releaseOf(row.migration_name),
        }
    } catch (error) {
      throw new SourceSchemaError(
        `the source is not a passbolt database (no phinxlog table: ${(error as Error).message})`,
      )
    }
    const schema = checkSchema(latest)
    const [present] = await connection.query(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()',
    )
    const tables = new Set((present as { name: string }[]).map((row) => row.name))
    const data = {} as SourceData
    for (const table of SOURCE_TABLES) {
      if (!tables.has(table)) {
        if (!NOT_IN_4_0.includes(table))
          throw new SourceSchemaError(
            `the source has no ${table} table: it is not a passbolt database`,
          )
        data[table] = []
        continue
      }
      const [rows] = await connection.query(`SELECT * FROM \`${table}\``)
      data[table] = rows as SourceRow[]
      onTable(table, data[table].length)
    }
    await connection.query('COMMIT')
    return { schema, data }
  } finally {
    await connection.end()
  }
}
