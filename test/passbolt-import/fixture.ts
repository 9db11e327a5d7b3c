// A passbolt CE database on the MariaDB at 127.0.0.1:3306, built for one test and dropped after
// it. The tables are those of passbolt 5.12.0 (the schema passbolt/passbolt_api's
// config/Migrations leave, phinxlog ending at 20260504120000), reduced to the tables and columns
// the migration reads; `phinxlog` names the last migration as passbolt records it.
import { randomBytes } from 'node:crypto'
import type { ExecutionContext } from 'ava'
import mysql from 'mysql2/promise'

const ADMIN_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/'

const uuid = 'char(36) NOT NULL'
const uuidNull = 'char(36) DEFAULT NULL'
const stamps = 'created datetime NOT NULL, modified datetime NOT NULL'
const table = (name: string, columns: string) =>
  `CREATE TABLE \`${name}\` (${columns}) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`

export const PASSBOLT_5_12_SCHEMA = [
  table(
    'phinxlog',
    'version bigint(20) NOT NULL PRIMARY KEY, migration_name varchar(100) DEFAULT NULL, start_time timestamp NULL DEFAULT NULL, end_time timestamp NULL DEFAULT NULL, breakpoint tinyint(1) NOT NULL DEFAULT 0',
  ),
  table(
    'roles',
    `id ${uuid} PRIMARY KEY, name varchar(50) NOT NULL, description varchar(255) DEFAULT NULL, ${stamps}, deleted datetime DEFAULT NULL, created_by ${uuidNull}, modified_by ${uuidNull}`,
  ),
  table(
    'users',
    `id ${uuid} PRIMARY KEY, role_id ${uuid}, username varchar(255) NOT NULL, active tinyint(1) NOT NULL DEFAULT 0, deleted tinyint(1) NOT NULL DEFAULT 0, ${stamps}, created_by ${uuidNull}, modified_by ${uuidNull}, disabled datetime DEFAULT NULL, last_logged_in datetime DEFAULT NULL`,
  ),
  table(
    'profiles',
    `id ${uuid} PRIMARY KEY, user_id ${uuid}, first_name varchar(255) NOT NULL, last_name varchar(255) NOT NULL, ${stamps}`,
  ),
  table(
    'gpgkeys',
    `id ${uuid} PRIMARY KEY, user_id ${uuid}, armored_key text NOT NULL, bits int(11) DEFAULT 2048, uid varchar(128) NOT NULL, key_id varchar(16) NOT NULL, fingerprint varchar(51) NOT NULL, type varchar(16) DEFAULT NULL, expires datetime DEFAULT NULL, key_created datetime NOT NULL, deleted tinyint(1) NOT NULL DEFAULT 0, ${stamps}`,
  ),
  table(
    'groups',
    `id ${uuid} PRIMARY KEY, name varchar(255) NOT NULL, deleted tinyint(1) NOT NULL DEFAULT 0, ${stamps}, created_by ${uuid}, modified_by ${uuid}`,
  ),
  table(
    'groups_users',
    `id ${uuid} PRIMARY KEY, group_id ${uuid}, user_id ${uuid}, is_admin tinyint(1) NOT NULL DEFAULT 0, created datetime NOT NULL, created_by ${uuidNull}`,
  ),
  table(
    'metadata_keys',
    `id ${uuid} PRIMARY KEY, fingerprint varchar(51) NOT NULL, armored_key text NOT NULL, ${stamps}, created_by ${uuidNull}, modified_by ${uuidNull}, deleted datetime DEFAULT NULL, expired datetime DEFAULT NULL`,
  ),
  table(
    'metadata_private_keys',
    `id ${uuid} PRIMARY KEY, metadata_key_id ${uuid}, user_id ${uuidNull}, data text NOT NULL, ${stamps}, created_by ${uuidNull}, modified_by ${uuidNull}`,
  ),
  table(
    'metadata_session_keys',
    `id ${uuid} PRIMARY KEY, user_id ${uuid}, data mediumtext NOT NULL, ${stamps}`,
  ),
  table(
    'resource_types',
    `id ${uuid} PRIMARY KEY, slug varchar(64) NOT NULL, name varchar(255) NOT NULL, description text, definition text, ${stamps}, deleted datetime DEFAULT NULL`,
  ),
  table(
    'resources',
    `id ${uuid} PRIMARY KEY, name varchar(255) DEFAULT NULL, username varchar(255) DEFAULT NULL, uri text, description text, metadata mediumtext, metadata_key_id ${uuidNull}, metadata_key_type varchar(100) DEFAULT NULL, deleted tinyint(1) NOT NULL DEFAULT 0, ${stamps}, created_by ${uuid}, modified_by ${uuid}, resource_type_id ${uuidNull}, expired datetime DEFAULT NULL`,
  ),
  table(
    'secrets',
    `id ${uuid} PRIMARY KEY, user_id ${uuid}, resource_id ${uuid}, secret_revision_id ${uuidNull}, deleted datetime DEFAULT NULL, created_by ${uuidNull}, modified_by ${uuidNull}, data mediumtext NOT NULL, ${stamps}`,
  ),
  table(
    'permissions',
    `id ${uuid} PRIMARY KEY, aco varchar(30) NOT NULL, aco_foreign_key ${uuid}, aro varchar(30) NOT NULL, aro_foreign_key ${uuid}, type int(11) NOT NULL DEFAULT 0, ${stamps}, created_by ${uuidNull}, modified_by ${uuidNull}`,
  ),
  table(
    'folders',
    `id ${uuid} PRIMARY KEY, name varchar(256) DEFAULT NULL, metadata mediumtext, metadata_key_id ${uuidNull}, metadata_key_type varchar(100) DEFAULT NULL, ${stamps}, created_by ${uuid}, modified_by ${uuid}`,
  ),
  table(
    'folders_relations',
    `id ${uuid} PRIMARY KEY, foreign_model varchar(30) NOT NULL, foreign_id ${uuid}, user_id ${uuid}, folder_parent_id ${uuidNull}, ${stamps}`,
  ),
  table(
    'favorites',
    `id ${uuid} PRIMARY KEY, user_id ${uuid}, foreign_key ${uuid}, foreign_model varchar(36) NOT NULL, ${stamps}`,
  ),
  table(
    'comments',
    `id ${uuid} PRIMARY KEY, parent_id ${uuidNull}, foreign_key ${uuid}, foreign_model varchar(36) NOT NULL, content varchar(256) NOT NULL, data mediumtext, ${stamps}, created_by ${uuid}, modified_by ${uuid}, user_id ${uuid}`,
  ),
  table(
    'tags',
    `id ${uuid} PRIMARY KEY, slug varchar(128) DEFAULT NULL, is_shared tinyint(1) NOT NULL DEFAULT 0, metadata mediumtext, metadata_key_id ${uuidNull}, metadata_key_type varchar(100) DEFAULT NULL`,
  ),
  table(
    'resources_tags',
    `id ${uuid} PRIMARY KEY, resource_id ${uuid}, tag_id ${uuid}, user_id ${uuidNull}, created datetime NOT NULL`,
  ),
  table('avatars', `id ${uuid} PRIMARY KEY, data blob DEFAULT NULL, profile_id ${uuid}, ${stamps}`),
  table(
    'organization_settings',
    `id ${uuid} PRIMARY KEY, property varchar(100) NOT NULL, property_id ${uuid}, value text NOT NULL, ${stamps}, created_by ${uuid}, modified_by ${uuid}`,
  ),
  table(
    'account_settings',
    `id ${uuid} PRIMARY KEY, user_id ${uuid}, property_id ${uuid}, property varchar(256) NOT NULL, value text NOT NULL, ${stamps}`,
  ),
  table('ui_actions', `id ${uuid} PRIMARY KEY, name varchar(255) NOT NULL, ${stamps}`),
  table(
    'rbacs',
    `id ${uuid} PRIMARY KEY, role_id ${uuid}, control_function varchar(255) DEFAULT NULL, foreign_model varchar(36) NOT NULL, foreign_id ${uuid}, ${stamps}, created_by ${uuidNull}, modified_by ${uuidNull}`,
  ),
]

/** Tables passbolt 4.10 added; a 4.0-4.9 database lacks them. */
export const SINCE_4_10 = ['metadata_keys', 'metadata_private_keys', 'metadata_session_keys']

/** Tables passbolt 4.1 added (roles' UI rights). */
export const SINCE_4_1 = ['ui_actions', 'rbacs']

export interface MariaDb {
  url: string
  insert(table: string, row: Record<string, unknown>): Promise<void>
  run(sql: string, values?: unknown[]): Promise<unknown>
}

/** An empty passbolt 5.12 schema in a new database, dropped at teardown. */
export const createPassboltDatabase = async (
  t: ExecutionContext,
  lastMigration = { version: '20260504120000', name: 'V5120AddPartialUniqueIndexOnScimEntries' },
): Promise<MariaDb> => {
  const name = `passbolt_fixture_${randomBytes(6).toString('hex')}`
  const admin = await mysql.createConnection({ uri: ADMIN_URL, timezone: 'Z' })
  await admin.query(`CREATE DATABASE \`${name}\``)
  await admin.end()
  t.teardown(async () => {
    const connection = await mysql.createConnection({ uri: ADMIN_URL })
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``)
    await connection.end()
  })
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  const connection = await mysql.createConnection({ uri: url.toString(), timezone: 'Z' })
  t.teardown(() => connection.end())
  for (const statement of PASSBOLT_5_12_SCHEMA) await connection.query(statement)
  await connection.query('INSERT INTO phinxlog (version, migration_name) VALUES (?, ?), (?, ?)', [
    '20230418103007',
    'V400AddTotpResourceTypes',
    lastMigration.version,
    lastMigration.name,
  ])
  return {
    url: url.toString(),
    insert: async (tableName, row) => {
      const columns = Object.keys(row)
      await connection.query(
        `INSERT INTO \`${tableName}\` (${columns.map((c) => `\`${c}\``).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        Object.values(row),
      )
    },
    run: (sql, values = []) => connection.query(sql, values),
  }
}
