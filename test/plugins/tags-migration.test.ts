// The migration that gives tags their keys, run over rows made before it: duplicate shared tags
// merge, a personal tag several users link splits into one a user, repeated links and unused
// tags go, and the keys then refuse a second tag of one slug.
import test from 'ava'
import pg from 'pg'
import { allMigrations, createOrm, migrate } from '../../api/orm.ts'
import { plugins } from '../../plugins/index.ts'
import { createTestDatabase } from '../helpers/database.ts'

const KEYS = 'Migration20261127020000TagKeys'

test('existing tags are merged into one shared tag a slug and one personal tag a user and slug', async (t) => {
  const url = await createTestDatabase(t)
  const migrations = allMigrations(plugins)
  const before = await createOrm({
    url,
    entities: [],
    migrations: migrations.filter((migration) => migration.name < KEYS),
  })
  await migrate(before)
  await before.close()

  const client = new pg.Client({ connectionString: url })
  await client.connect()
  t.teardown(() => client.end())
  const sql = async (text: string, values: unknown[] = []) =>
    (await client.query(text, values)).rows
  const [role] = await sql("select id from roles where name = 'user'")
  const [ada, bob] = await sql(
    `insert into users (id, role_id, username) values
       ('00000000-0000-4000-8000-00000000000a', $1, 'ada@example.com'),
       ('00000000-0000-4000-8000-00000000000b', $1, 'bob@example.com') returning id`,
    [role.id],
  )
  const [type] = await sql('select id from resource_types order by slug limit 1')
  const [r1, r2] = await sql(
    `insert into resources (id, name, resource_type_id) values
       (gen_random_uuid(), 'one', $1), (gen_random_uuid(), 'two', $1) returning id`,
    [type.id],
  )
  const tag = (id: string, slug: string, shared: boolean) =>
    sql('insert into tags (id, slug, is_shared) values ($1, $2, $3)', [id, slug, shared])
  const shared1 = '10000000-0000-4000-8000-000000000001'
  const shared2 = '10000000-0000-4000-8000-000000000002'
  const mixed = '10000000-0000-4000-8000-000000000003'
  const adas = '10000000-0000-4000-8000-000000000004'
  const unused = '10000000-0000-4000-8000-000000000005'
  await tag(shared1, '#team', true)
  await tag(shared2, '#team', true)
  await tag(mixed, 'work', false)
  await tag(adas, 'work', false)
  await tag(unused, 'old', false)
  const link = (resource: string, tagId: string, user: string | null) =>
    sql(
      'insert into resources_tags (id, resource_id, tag_id, user_id) values (gen_random_uuid(), $1, $2, $3)',
      [resource, tagId, user],
    )
  await link(r1.id, shared1, null)
  await link(r1.id, shared2, null)
  await link(r2.id, shared2, null)
  // `work`: one tag linked by Ada and Bob (as passbolt keeps personal tags), and a second one
  // of Ada's on the same resource.
  await link(r1.id, mixed, ada.id)
  await link(r1.id, mixed, bob.id)
  await link(r2.id, mixed, bob.id)
  await link(r1.id, adas, ada.id)

  // Up to this migration: later ones are not what this test is about.
  const after = await createOrm({
    url,
    entities: [],
    migrations: migrations.filter((migration) => migration.name <= KEYS),
  })
  t.teardown(() => after.close())
  t.deepEqual(await migrate(after), [KEYS])

  const tags = await sql(
    `select t.id, t.slug, t.is_shared, u.username,
       array(select r.name from resources_tags rt join resources r on r.id = rt.resource_id
             where rt.tag_id = t.id order by r.name) as resources
     from tags t left join users u on u.id = t.user_id order by t.slug, u.username`,
  )
  t.deepEqual(
    tags.map(({ id, ...rest }) => rest),
    [
      { slug: '#team', is_shared: true, username: null, resources: ['one', 'two'] },
      { slug: 'work', is_shared: false, username: 'ada@example.com', resources: ['one'] },
      { slug: 'work', is_shared: false, username: 'bob@example.com', resources: ['one', 'two'] },
    ],
  )
  t.is(tags[0].id, shared1, 'the smallest id of a slug is kept')
  t.is(tags[1].id, mixed, 'the first of its users keeps a shared personal tag')
  t.deepEqual(
    await sql(
      `select rt.user_id, t.user_id as owner from resources_tags rt join tags t on t.id = rt.tag_id
       where not t.is_shared and rt.user_id is distinct from t.user_id`,
    ),
    [],
    'a personal tag is linked by its user only',
  )
  await t.throwsAsync(tag(shared2, '#team', true), { message: /tags_shared_slug_unique/ })
  await t.throwsAsync(
    sql(
      "insert into tags (id, slug, is_shared, user_id) values (gen_random_uuid(), 'work', false, $1)",
      [ada.id],
    ),
    { message: /tags_personal_slug_unique/ },
  )
  await t.throwsAsync(link(r1.id, shared1, null), { message: /resources_tags_shared_unique/ })
  await t.throwsAsync(link(r1.id, mixed, ada.id), { message: /resources_tags_personal_unique/ })
  // Another user's tag of that slug is their own.
  await t.notThrowsAsync(
    sql(
      "insert into tags (id, slug, is_shared, user_id) values (gen_random_uuid(), 'old', false, $1)",
      [bob.id],
    ),
  )
})
