// Migrations from an empty database: every table of the data model, indexes, seeded roles;
// a second run applies nothing.
import test from 'ava'
import pg from 'pg'
import { allMigrations, createOrm, migrate } from '../../api/orm.ts'
import { plugins } from '../../plugins/index.ts'
import { createTestDatabase } from '../helpers/database.ts'

const TABLES = [
  'account_settings',
  'authentication_tokens',
  'avatars',
  'comments',
  'favorites',
  'folders',
  'folders_relations',
  'gpgkeys',
  'groups',
  'groups_users',
  'mail_queue',
  'metadata_keys',
  'metadata_private_keys',
  'metadata_session_keys',
  'mikro_orm_migrations',
  'organization_settings',
  'permissions',
  'profiles',
  'rbacs',
  'resource_types',
  'resources',
  'resources_tags',
  'roles',
  'scheduled_jobs',
  'secret_revisions',
  'secrets',
  'sessions',
  'tags',
  'throttles',
  'transfers',
  'ui_actions',
  'users',
]

test('migrating an empty database creates the whole schema once', async (t) => {
  const url = await createTestDatabase(t)
  const orm = await createOrm({ url, entities: [], migrations: allMigrations(plugins) })
  t.teardown(() => orm.close())
  t.deepEqual(
    await migrate(orm),
    allMigrations(plugins).map((migration) => migration.name),
    'every migration, in order',
  )
  t.deepEqual(await migrate(orm), [], 'nothing left to apply')

  const client = new pg.Client({ connectionString: url })
  await client.connect()
  t.teardown(() => client.end())
  const tables = await client.query(
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  )
  t.deepEqual(
    tables.rows.map((r) => r.table_name),
    TABLES,
  )
  // What plugins declare for others to read.
  const views = await client.query(
    "select table_name from information_schema.views where table_schema = 'public' order by 1",
  )
  t.deepEqual(
    views.rows.map((r) => r.table_name),
    ['group_members', 'group_records', 'resource_records'],
  )
  const roles = await client.query('select name from roles order by name')
  t.deepEqual(
    roles.rows.map((r) => r.name),
    ['admin', 'guest', 'user'],
  )
  const indexes = await client.query("select indexname from pg_indexes where schemaname = 'public'")
  const names = indexes.rows.map((r) => r.indexname)
  for (const index of [
    'permissions_lookup_index',
    'folders_relations_user_id_foreign_id_index',
    'secrets_user_id_resource_id_index',
    'gpgkeys_fingerprint_index',
  ])
    t.true(names.includes(index), index)
  await t.throwsAsync(
    client.query(
      "insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type) values (gen_random_uuid(), 'Resource', gen_random_uuid(), 'User', gen_random_uuid(), 3)",
    ),
    {
      message: /permissions_type_check/,
    },
  )
})
