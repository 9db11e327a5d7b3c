// The core a domain plugin stands on, over real HTTP and PostgreSQL: the access-policy stage
// (404 when the caller may not know the item, 403 when they lack the level), effective
// permissions through groups, lists that join what the caller may read, contain loaders with a
// constant number of statements, pagination, transactions that roll back and row locks that
// serialise concurrent changes.
import test, { type ExecutionContext } from 'ava'
import { z } from 'zod'
import { lockRows } from '../../api/db/transaction.ts'
import { selectRows } from '../../api/orm.ts'
import { applyOrder, selectPage } from '../../api/pagination.ts'
import { definePlugin, defineRoute, Reply } from '../../api/plugin.ts'
import avatars from '../../plugins/avatars/index.ts'
import groups from '../../plugins/groups/index.ts'
import permissionsPlugin, {
  canAccess,
  highestPermissionRows,
  OWNER,
  READ,
  readableBy,
  UPDATE,
} from '../../plugins/permissions/index.ts'
import roles from '../../plugins/roles/index.ts'
import secrets from '../../plugins/secrets/index.ts'
import settings from '../../plugins/settings/index.ts'
import users from '../../plugins/users/index.ts'
import { startTestApi, testAuthPlugin } from '../helpers/api.ts'
import { query } from '../helpers/database.ts'
import { countQueries } from '../helpers/queries.ts'

const ITEM = {
  aco: 'Resource',
  model: 'item',
  forbidden: 'You are not allowed to change this item.',
} as const

const probe = definePlugin({
  name: 'probe',
  dependsOn: ['permissions'],
  routes: [
    defineRoute({
      method: 'GET',
      path: '/probe/items.json',
      action: 'ProbeItems.index',
      summary: 'items the caller can read',
      auth: 'user',
      // The list joins what the caller may read.
      permission: 'none',
      query: {
        paginate: true,
        sort: ['Items.name', 'Items.created'],
        contain: {
          permission: {},
          tags: {
            load: async (rows: { id: string; tags?: string[] }[], { em }) => {
              const tags = await selectRows<{ item_id: string; label: string }>(em, (knex) =>
                knex('probe_tags')
                  .whereIn(
                    'item_id',
                    rows.map((row) => row.id),
                  )
                  .orderBy('label')
                  .select('item_id', 'label'),
              )
              for (const row of rows)
                row.tags = tags.filter((tag) => tag.item_id === row.id).map((tag) => tag.label)
            },
          },
        },
      },
      handler: async ({ em, user, query: parsed }) => {
        const page = await selectPage<Record<string, unknown>>(em, parsed, (knex) => {
          const list = knex('probe_items')
            .join(
              readableBy(knex, user!.id, 'Resource').as('access'),
              'access.aco_foreign_key',
              'probe_items.id',
            )
            .select('probe_items.id', 'probe_items.name', 'access.permission_type')
          if (parsed.contain.permission)
            list
              .join(
                highestPermissionRows(knex, user!.id, 'Resource').as('permission'),
                'permission.aco_foreign_key',
                'probe_items.id',
              )
              .select({ permission_id: 'permission.id', permission_aro: 'permission.aro' })
          return applyOrder(list, parsed.order, {
            'Items.name': 'probe_items.name',
            'Items.created': 'probe_items.created',
          })
        })
        return new Reply(page.rows, { pagination: page.pagination })
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/probe/items/{id}.json',
      action: 'ProbeItems.view',
      summary: 'one item',
      auth: 'user',
      permission: canAccess({ ...ITEM, param: 'id', level: READ }),
      params: z.object({ id: z.uuid() }),
      handler: ({ params, granted }) => ({ id: params.id, permission: granted.permission }),
    }),
    defineRoute({
      method: 'PUT',
      path: '/probe/items/{id}.json',
      action: 'ProbeItems.edit',
      summary: 'rename an item',
      auth: 'user',
      permission: canAccess({ ...ITEM, param: 'id', level: UPDATE, lock: 'probe_items' }),
      params: z.object({ id: z.uuid() }),
      body: z.object({ name: z.string().min(1).max(10), fail: z.boolean().optional() }),
      transaction: true,
      handler: async ({ params, body, em }) => {
        await em.execute('update probe_items set name = ? where id = ?', [body.name, params.id])
        await em.execute('insert into probe_log (item_id) values (?)', [params.id])
        if (body.fail) throw new Error('failed after writing')
        return null
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/probe/items/{id}/count.json',
      action: 'ProbeItems.count',
      summary: 'read-modify-write a counter under the item lock',
      auth: 'user',
      permission: canAccess({ ...ITEM, param: 'id', level: OWNER, lock: 'probe_items' }),
      params: z.object({ id: z.uuid() }),
      transaction: true,
      handler: async ({ params, em }) => {
        await lockRows(em, 'probe_items', [params.id])
        const [row] = await selectRows<{ counter: number }>(em, (knex) =>
          knex('probe_items').where('id', params.id).select('counter'),
        )
        await new Promise((resolve) => setTimeout(resolve, 20))
        await em.execute('update probe_items set counter = ? where id = ?', [
          row.counter + 1,
          params.id,
        ])
        return null
      },
    }),
  ],
})

const ADA = '00000000-0000-4000-8000-00000000000a'
const BOB = '00000000-0000-4000-8000-00000000000b'

const start = async (t: ExecutionContext) => {
  const api = await startTestApi(t, {
    // The groups plugin owns the views of memberships that the permissions plugin reads.
    plugins: [
      settings,
      roles,
      avatars,
      users,
      permissionsPlugin,
      secrets,
      groups,
      testAuthPlugin,
      probe,
    ],
  })
  const sql = (text: string, values: unknown[] = []) => query(api.app.database.url, text, values)
  await sql(`create table probe_items (id uuid primary key, name text not null,
    counter integer not null default 0, created timestamptz not null default now())`)
  await sql('create table probe_tags (item_id uuid not null, label text not null)')
  await sql('create table probe_log (item_id uuid not null)')
  const role = (await sql("select id from roles where name = 'user'"))[0].id
  for (const [id, name] of [
    [ADA, 'ada'],
    [BOB, 'bob'],
  ])
    await sql(
      "insert into users (id, role_id, username, active) values ($1, $2, $3 || '@keyward.test', true)",
      [id, role, name],
    )
  /** Items `name-1`…`name-n`, each with two tags, given to `aro` at `type`. */
  const items = async (n: number, aro: string, type: number, name = 'item') => {
    const rows = await sql(
      `insert into probe_items (id, name) select gen_random_uuid(), $1 || '-' || lpad(i::text, 5, '0')
       from generate_series(1, $2) i returning id`,
      [name, n],
    )
    const ids = rows.map((row) => row.id as string)
    await sql(
      `insert into probe_tags select id, label from unnest($1::uuid[]) id, (values ('a'), ('b')) labels(label)`,
      [ids],
    )
    await sql(
      `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
       select gen_random_uuid(), 'Resource', id, $2, $3, $4 from unnest($1::uuid[]) id`,
      [ids, aro === ADA || aro === BOB ? 'User' : 'Group', aro, type],
    )
    return ids
  }
  const group = async (members: string[], deleted = false) => {
    const [{ id }] = await sql(
      "insert into groups (id, name, deleted) values (gen_random_uuid(), 'g', $1) returning id",
      [deleted],
    )
    for (const member of members)
      await sql(
        'insert into groups_users (id, group_id, user_id) values (gen_random_uuid(), $1, $2)',
        [id, member],
      )
    return id as string
  }
  const as = (user: string) => ({ role: 'user' as const, as: user })
  return { api, sql, items, group, as }
}

test('the access policy answers 404 to a caller without access and 403 to one without the level', async (t) => {
  const { api, items, as } = await start(t)
  const [readOnly] = await items(1, ADA, READ)
  const [updatable] = await items(1, ADA, UPDATE)
  const [hidden] = await items(1, BOB, OWNER)
  const view = await api.request(`/probe/items/${hidden}.json`, as(ADA))
  t.is(view.status, 404)
  t.is(view.json.header.message, 'The item does not exist.')
  t.is((await api.request(`/probe/items/${readOnly}.json`, as(ADA))).json.body.permission, READ)
  const put = (id: string, body: unknown) =>
    api.request(`/probe/items/${id}.json`, {
      ...as(ADA),
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const forbidden = await put(readOnly, { name: 'new' })
  t.is(forbidden.status, 403)
  t.is(forbidden.json.header.message, 'You are not allowed to change this item.')
  t.is((await put(updatable, { name: 'new' })).status, 200)
  t.is((await put(hidden, { name: '' })).status, 404, 'access is refused before the body is judged')
  t.is((await put(updatable, { name: '' })).status, 400)
  t.is(
    (await api.request('/probe/items/not-a-uuid.json', as(ADA))).status,
    400,
    'the parameter is checked first',
  )
  t.is((await api.request(`/probe/items/${readOnly}.json`)).status, 401)
})

test('the effective permission is the highest held directly or through a live group', async (t) => {
  const { api, items, group, as } = await start(t)
  const team = await group([ADA, BOB])
  const gone = await group([ADA], true)
  const [shared] = await items(1, team, UPDATE)
  await api.app.orm.em
    .fork()
    .execute(
      "insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type) values (gen_random_uuid(), 'Resource', ?, 'User', ?, 1), (gen_random_uuid(), 'Resource', ?, 'Group', ?, 15)",
      [shared, ADA, shared, gone],
    )
  t.is(
    (await api.request(`/probe/items/${shared}.json`, as(ADA))).json.body.permission,
    UPDATE,
    'group update beats direct read; the deleted group counts for nothing',
  )
  t.is((await api.request(`/probe/items/${shared}.json`, as(BOB))).json.body.permission, UPDATE)
  const list = await api.request('/probe/items.json?contain[permission]=1', as(ADA))
  t.deepEqual(
    list.json.body.map((row: Record<string, unknown>) => [row.permission_type, row.permission_aro]),
    [[UPDATE, 'Group']],
    'the row that gives the level is the one reported',
  )
})

test('a list holds only what the caller can read, pages with passbolt pagination, and loads each contain in one statement whatever the row count', async (t) => {
  const { api, items, as } = await start(t)
  await items(10, ADA, READ, 'mine')
  await items(5, BOB, OWNER, 'theirs')
  const small = await countQueries(api, () =>
    api.request('/probe/items.json?contain[tags]=1&contain[permission]=1', as(ADA)),
  )
  t.is(small.result.json.body.length, 10)
  t.true(small.result.json.body.every((row: { name: string }) => row.name.startsWith('mine')))
  t.deepEqual(small.result.json.body[0].tags, ['a', 'b'])
  t.deepEqual(small.result.json.header.pagination, { count: 10, page: 1, limit: null })
  await items(1000, ADA, UPDATE, 'more')
  const large = await countQueries(api, () =>
    api.request('/probe/items.json?contain[tags]=1&contain[permission]=1', as(ADA)),
  )
  t.is(large.result.json.body.length, 1010)
  t.true(large.result.json.body.every((row: { tags: string[] }) => row.tags.length === 2))
  t.is(
    large.statements.length,
    small.statements.length,
    'the same statements for 10 rows and 1,010',
  )
  t.is(small.statements.length, 2, 'the list and one per requested contain')
  const without = await countQueries(api, () => api.request('/probe/items.json', as(ADA)))
  t.is(without.statements.length, 1)
  t.is(without.result.json.body[0].tags, undefined, 'a contain not asked for is not loaded')

  const page = await api.request(
    '/probe/items.json?limit=100&page=3&order[]=Item.name%20DESC&contain[tags]=1',
    as(ADA),
  )
  t.deepEqual(page.json.header.pagination, { count: 1010, page: 3, limit: 100 })
  t.is(page.json.body.length, 100)
  t.is(page.json.body[0].name, 'more-00800')
  const past = await api.request('/probe/items.json?limit=100&page=30', as(ADA))
  t.deepEqual(past.json.header.pagination, { count: 1010, page: 30, limit: 100 })
  t.deepEqual(past.json.body, [])
  t.is((await api.request('/probe/items.json?limit=0', as(ADA))).status, 400)
  t.is((await api.request('/probe/items.json?page=x', as(ADA))).status, 400)
})

test('a route in a transaction that throws leaves nothing written', async (t) => {
  const { api, sql, items, as } = await start(t)
  const [id] = await items(1, ADA, OWNER, 'before')
  const put = (body: unknown) =>
    api.request(`/probe/items/${id}.json`, {
      ...as(ADA),
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  t.is((await put({ name: 'after', fail: true })).status, 500)
  t.deepEqual(await sql('select name from probe_items where id = $1', [id]), [
    { name: 'before-00001' },
  ])
  t.deepEqual(await sql('select * from probe_log'), [], 'the second write went too')
  t.is((await put({ name: 'after' })).status, 200)
  t.deepEqual(await sql('select name from probe_items where id = $1', [id]), [{ name: 'after' }])
})

test('concurrent changes to one item wait for its lock: no update is lost', async (t) => {
  const { api, sql, items, as } = await start(t)
  const [id] = await items(1, ADA, OWNER)
  const statuses = await Promise.all(
    Array.from({ length: 8 }, () =>
      api.request(`/probe/items/${id}/count.json`, { ...as(ADA), method: 'POST' }),
    ),
  )
  t.deepEqual(
    statuses.map((response) => response.status),
    Array(8).fill(200),
  )
  t.deepEqual(await sql('select counter from probe_items where id = $1', [id]), [{ counter: 8 }])
})

test('one EntityManager per request: authentication, guards and the handler share it', async (t) => {
  const { api, items, as } = await start(t)
  const [id] = await items(1, ADA, READ)
  const orm = api.app.orm
  const fork = orm.em.fork.bind(orm.em)
  let forks = 0
  orm.em.fork = ((...args: Parameters<typeof fork>) => {
    forks++
    return fork(...args)
  }) as typeof orm.em.fork
  t.teardown(() => {
    orm.em.fork = fork
  })
  await api.request(`/probe/items/${id}.json`, as(ADA))
  t.is(forks, 1)
})
