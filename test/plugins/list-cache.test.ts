// Whole lists kept by the server (the resources list, the users directory): the same request
// again is answered without PostgreSQL, and any change to what a list shows, made through this
// server or behind its back, is in the next answer; every table a kept list reads announces its
// changes, as its statement's plan names them.
import type { Socket } from 'node:net'
import test from 'ava'
import { createLogger } from '../../api/app.ts'
import { ChangeFeed } from '../../api/db/change-feed.ts'
import { ListCache } from '../../api/db/list-cache.ts'
import {
  documentsStatement,
  RESOURCE_LIST_TABLES,
  resourceListReads,
  WRITTEN,
} from '../../plugins/resources/documents.ts'
import type { ResourceFilters } from '../../plugins/resources/query.ts'
import { directoryStatement, USER_LIST_TABLES } from '../../plugins/users/directory.ts'
import { changeAndWait, feedSettled, startTestApi, type TestApi } from '../helpers/api.ts'
import { gpgAuthLogin, TestClient } from '../helpers/client.ts'
import { query } from '../helpers/database.ts'
import { countQueries } from '../helpers/queries.ts'
import { createPassword, encryptFor, makeGroup, sendBody, team } from '../helpers/vault.ts'

const SYNC = '/resources.json?contain[permission]=1&contain[favorite]=1&contain[tag]=1'
const TREE = '/resources.json?contain[permissions.user.profile]=1&contain[permissions.group]=1'
const DIRECTORY = '/users.json?contain[profile]=1&contain[gpgkey]=1&contain[groups_users]=1'

/** Whether a statement of the list's own (its cursor), not of the sign-in, was run. */
const readsList = (statements: string[]) => statements.some((sql) => /with "page" as/.test(sql))

/** Every table a plan reads, views resolved to their tables. */
const planTables = async (api: TestApi, statement: { toSQL(): { toNative(): unknown } }) => {
  const { sql, bindings } = statement.toSQL().toNative() as { sql: string; bindings: unknown[] }
  const [row] = await query(api.app.database.url, `explain (format json) ${sql}`, bindings)
  const tables = new Set<string>()
  const walk = (node: Record<string, unknown>) => {
    if (typeof node['Relation Name'] === 'string') tables.add(node['Relation Name'])
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child)
  }
  walk((row['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0].Plan)
  return tables
}

test('every table a kept list reads announces its changes, and its cache listens to it', async (t) => {
  const api = await startTestApi(t)
  const [ada] = await team(api, ['ada'], 'ada')
  const knex = api.app.orm.em.getKnex()
  const read = new Set<string>()
  // Each contain alone (with `permissions`, which the holders' contains require), all of them,
  // none; each filter alone and all of them; every pair of the two.
  const single = (name: string) =>
    name.startsWith('permissions.') ? { permissions: true, [name]: true } : { [name]: true }
  const containSets: Record<string, boolean>[] = [
    {},
    ...[...WRITTEN].map(single),
    Object.fromEntries([...WRITTEN].map((name) => [name, true])),
  ]
  const everyFilter: ResourceFilters = {
    favorite: false,
    ownedByMe: true,
    sharedWithMe: true,
    sharedWithGroup: ada.id,
    metadataKeyType: 'user_key',
    parents: [ada.id, null],
    tag: 'x',
    ids: [ada.id],
  }
  const filterSets: ResourceFilters[] = [
    {},
    ...Object.entries(everyFilter).map(([name, value]) => ({ [name]: value })),
    everyFilter,
  ]
  for (const contain of containSets)
    for (const filters of filterSets) {
      const { statement } = documentsStatement(
        knex,
        ada.id,
        { contain, page: 2, limit: 10, order: [] },
        filters,
        api.app.config.appUrl,
      )
      const tables = await planTables(api, statement)
      for (const table of tables) read.add(table)
      const reads = resourceListReads(ada.id, contain, filters)
      const declared = [...reads.tables, ...Object.keys(reads.rows ?? {})]
      const missing = [...tables].filter((table) => !declared.includes(table))
      if (missing.length)
        t.fail(`${JSON.stringify({ contain, filters })} reads ${missing} it does not declare`)
    }
  t.true(read.has('resources') && read.has('tags') && read.has('folders_relations'))
  t.true(read.has('profiles') && read.has('favorites'))
  t.deepEqual(
    [...read].filter((table) => !RESOURCE_LIST_TABLES.includes(table)),
    [],
    'tables the resources list reads that its cache does not listen to',
  )
  const usersRead = new Set<string>()
  const em = api.app.orm.em.fork()
  for (const role of ['admin', 'user'] as const) {
    const { statement } = await directoryStatement(em, api.app, {
      user: { id: ada.id, username: ada.username, role },
      contain: { profile: true, gpgkey: true, groups_users: true, role: true },
      filter: {
        'is-active': true,
        'is-admin': false,
        search: ['a'],
        'has-groups': [ada.id],
        ids: [ada.id],
      },
      page: 1,
      limit: null,
      order: [],
    })
    for (const table of await planTables(api, statement)) usersRead.add(table)
  }
  t.true(usersRead.has('gpgkeys') && usersRead.has('groups_users'))
  t.deepEqual(
    [...usersRead].filter((table) => !USER_LIST_TABLES.includes(table)),
    [],
    'tables the users directory reads that its cache does not listen to',
  )
  // Each table announces inserts, updates and deletions (truncation has no row to name).
  const announcing = new Set(
    (
      await query(
        api.app.database.url,
        `select event_object_table as relname from information_schema.triggers
         where action_statement like 'EXECUTE FUNCTION keyward_notify_%'
         group by event_object_table
         having count(distinct event_manipulation) = 3`,
      )
    ).map((row) => row.relname as string),
  )
  t.deepEqual(
    [...RESOURCE_LIST_TABLES, ...USER_LIST_TABLES].filter((table) => !announcing.has(table)),
    [],
    'tables a cache listens to that announce no change',
  )
})

test('the same list again is answered without PostgreSQL, and a change made through the server is in the very next answer', async (t) => {
  const api = await startTestApi(t)
  const [ada, bob] = await team(api, ['ada', 'bob'])
  await createPassword(bob, 'first')
  await feedSettled(api)
  const first = await countQueries(api, () => bob.client.fetch(SYNC))
  t.true(readsList(first.statements))
  const again = await countQueries(api, () => bob.client.fetch(SYNC))
  t.false(readsList(again.statements), again.statements.join('\n'))
  t.deepEqual(again.result.json.body, first.result.json.body)
  t.deepEqual(again.result.json.header.pagination, first.result.json.header.pagination)
  t.not(again.result.json.header.id, first.result.json.header.id)
  t.is(again.result.headers.get('cache-control'), 'no-store')

  // The caller's own changes, through the server, with no time for their notifications.
  const favorite = await bob.client.fetch(
    `/favorites/resource/${first.result.json.body[0].id}.json`,
    {
      method: 'POST',
    },
  )
  t.is(favorite.status, 200, favorite.text)
  t.truthy((await bob.client.fetch(SYNC)).json.body[0].favorite)
  await createPassword(bob, 'second')
  t.is((await bob.client.fetch(SYNC)).json.body.length, 2)
  // Another user's password, which bob cannot read, leaves the list just read kept.
  const adas = await createPassword(ada, 'adas')
  const afterAda = await countQueries(api, () => bob.client.fetch(SYNC))
  t.false(readsList(afterAda.statements))
  t.is(afterAda.result.json.body.length, 2)
  // Shared with him, it is in his next answer.
  const shared = await sendBody(ada, 'PUT', `/share/resource/${adas.id}.json`, {
    permissions: [{ aro: 'User', aro_foreign_key: bob.id, aco: 'Resource', type: 1 }],
    secrets: [{ user_id: bob.id, data: await encryptFor('{"password":"p"}', [bob], ada) }],
  })
  t.is(shared.status, 200, shared.text)
  const afterShare = await countQueries(api, () => bob.client.fetch(SYNC))
  t.true(readsList(afterShare.statements))
  t.deepEqual(afterShare.result.json.body.map((r: { name: string }) => r.name).sort(), [
    'adas',
    'first',
    'second',
  ])
})

test('a change made behind the server’s back is in the answer once its notification comes', async (t) => {
  const api = await startTestApi(t)
  const [bob] = await team(api, ['bob'])
  const resource = await createPassword(bob, 'before')
  await feedSettled(api)
  t.is((await bob.client.fetch(SYNC)).json.body[0].name, 'before')
  t.is((await bob.client.fetch(SYNC)).json.body[0].name, 'before')
  // Another process, or an operator: PostgreSQL announces it, nothing else does.
  await changeAndWait(api, () =>
    query(api.app.database.url, `update resources set name = 'after' where id = $1`, [resource.id]),
  )
  t.is((await bob.client.fetch(SYNC)).json.body[0].name, 'after')
  // A group joined behind the server's back shows in the users directory kept before.
  const before = await bob.client.fetch(DIRECTORY)
  t.deepEqual(before.json.body[0].groups_users, [])
  await changeAndWait(api, () => makeGroupBehindTheServer(api, bob.id))
  const after = await bob.client.fetch(DIRECTORY)
  t.is(after.json.body[0].groups_users.length, 1)
})

test('a change through the server is in the next answer even when its notification is slow to come', async (t) => {
  const api = await startTestApi(t)
  const [bob] = await team(api, ['bob'])
  const resource = await createPassword(bob, 'mine')
  await feedSettled(api)
  await bob.client.fetch(SYNC)
  t.false(readsList((await countQueries(api, () => bob.client.fetch(SYNC))).statements))
  // The listening connection reads nothing: notifications wait in its socket.
  const { stream } = (api.app.changes as unknown as { client: { connection: { stream: Socket } } })
    .client.connection
  stream.pause()
  try {
    const favorite = await bob.client.fetch(`/favorites/resource/${resource.id}.json`, {
      method: 'POST',
    })
    t.is(favorite.status, 200, favorite.text)
    t.truthy((await bob.client.fetch(SYNC)).json.body[0].favorite)
  } finally {
    stream.resume()
  }
})

test('a change to a table a list does not read leaves it kept: a sign-in, a profile edit', async (t) => {
  const api = await startTestApi(t)
  const [bob] = await team(api, ['bob'])
  await createPassword(bob, 'mine')
  await feedSettled(api)
  const sync = (await bob.client.fetch(SYNC)).json.body
  await bob.client.fetch(TREE)
  // Another device signs in: the user's row changes (its last sign-in), which the sync call
  // does not show.
  const laptop = new TestClient(api.url)
  t.is((await gpgAuthLogin(laptop, bob)).stage2.status, 200)
  const afterSignIn = await countQueries(api, () => laptop.fetch(SYNC))
  t.false(readsList(afterSignIn.statements), afterSignIn.statements.join('\n'))
  t.deepEqual(afterSignIn.result.json.body, sync)
  // A profile edit through the server: the permission tree shows profiles, the sync call not.
  const edited = await bob.client.json(`/users/${bob.id}.json`, 'PUT', {
    profile: { first_name: 'Robert', last_name: 'Builder' },
  })
  t.is(edited.status, 200, edited.text)
  const syncAfterEdit = await countQueries(api, () => bob.client.fetch(SYNC))
  t.false(readsList(syncAfterEdit.statements), syncAfterEdit.statements.join('\n'))
  const treeAfterEdit = await countQueries(api, () => bob.client.fetch(TREE))
  t.true(readsList(treeAfterEdit.statements))
  t.is(treeAfterEdit.result.json.body[0].permissions[0].user.profile.first_name, 'Robert')
})

test('caughtUp: every change committed before it has been heard when it resolves; a feed that is down drops what the process keeps', async (t) => {
  const api = await startTestApi(t)
  await feedSettled(api)
  const feed = api.app.changes
  let heard = 0
  feed.on('tags', () => heard++)
  const changeTags = () => query(api.app.database.url, `update tags set slug = slug where false`)
  for (let round = 1; round <= 5; round++) {
    await changeTags()
    await feed.caughtUp()
    t.is(heard, round)
  }
  // Calls made while one is on its way each wait for a mark sent after their change.
  let committed = 5
  const seen = await Promise.all(
    [1, 2, 3, 4].map(async () => {
      await changeTags()
      const before = ++committed
      await feed.caughtUp()
      return heard >= before
    }),
  )
  t.deepEqual(seen, [true, true, true, true])
  t.is(heard, 9)
  const silent = new ChangeFeed(api.app.database.url, createLogger({ logLevel: 'silent' }))
  let dropped = 0
  silent.onWriteHere(() => dropped++)
  await silent.caughtUp()
  t.is(dropped, 1)
})

/** A group with `userId` in it, written with SQL alone (no `wroteHere`, unlike `makeGroup`). */
const makeGroupBehindTheServer = async (api: TestApi, userId: string) => {
  const [{ id }] = await query(
    api.app.database.url,
    `insert into groups (id, name) values (gen_random_uuid(), 'Quiet') returning id`,
  )
  await query(
    api.app.database.url,
    `insert into groups_users (id, group_id, user_id, is_admin) values (gen_random_uuid(), $1, $2, true)`,
    [id, userId],
  )
}

test('each caller and each request has a list of its own', async (t) => {
  const api = await startTestApi(t)
  const [ada, bob] = await team(api, ['ada', 'bob'])
  await createPassword(ada, 'adas')
  await createPassword(bob, 'bobs')
  await makeGroup(api, 'Team', [ada, bob])
  for (let round = 0; round < 2; round++) {
    t.deepEqual(
      (await ada.client.fetch(SYNC)).json.body.map((r: { name: string }) => r.name),
      ['adas'],
    )
    t.deepEqual(
      (await bob.client.fetch(SYNC)).json.body.map((r: { name: string }) => r.name),
      ['bobs'],
    )
    const tree = (await bob.client.fetch(TREE)).json.body
    t.is(tree[0].permissions[0].user.profile.first_name.length > 0, true)
    t.false('favorite' in tree[0])
    const page = await bob.client.fetch('/resources.json?limit=1&page=2')
    t.deepEqual(
      [page.json.body, page.json.header.pagination],
      [[], { count: 1, page: 2, limit: 1 }],
    )
  }
})

test('a list is kept only when read whole while nothing changed, within its bound, least recently read out first', async (t) => {
  const api = await startTestApi(t)
  await feedSettled(api)
  const feed = api.app.changes
  const cache = new ListCache(feed, ['permissions'], 8_000)
  const read = (key: string, documents: string[], during?: () => void) => {
    const found = cache.lookup(key)
    if (found.kept) return 'kept'
    if (documents.length > 0) found.keeper.add(Buffer.from(documents.join(',')))
    during?.()
    found.keeper.finish(documents.length)
    return 'read'
  }
  t.is(read('a', ['{"a":1}']), 'read')
  t.is(read('a', []), 'kept')
  const kept = cache.lookup('a')
  t.deepEqual(
    [
      String(await kept.kept?.documents.next()),
      await kept.kept?.documents.next(),
      kept.kept?.count,
    ],
    ['{"a":1}', [], 1],
  )
  // A change heard while the list was read: the list read may be the one before it.
  t.is(
    read('b', ['{}'], () => feed.wroteHere()),
    'read',
  )
  t.is(read('b', []), 'read')
  // Over an eighth of the bound: never kept.
  const large = ['x'.repeat(1_100)]
  t.is(read('large', large), 'read')
  t.is(read('large', large), 'read')
  // Known too large from its first batch: not even collected.
  const foretold = cache.lookup('foretold')
  foretold.keeper?.expect(1_100)
  foretold.keeper?.add(Buffer.from('{}'))
  foretold.keeper?.finish(1)
  t.truthy(cache.lookup('foretold').keeper)
  // Room is made by dropping the least recently read: m1 was read again after m2.
  const medium = ['y'.repeat(700)]
  for (const key of ['m1', 'm2', 'm3', 'm4']) read(key, medium)
  t.is(read('m1', medium), 'kept')
  for (const key of ['m5', 'm6', 'm7', 'm8', 'm9']) read(key, medium)
  t.is(read('m1', medium), 'kept')
  t.is(read('a', []), 'read')
  t.is(read('m2', medium), 'read')
  t.is(read('m9', medium), 'kept')
  t.true(cache.stats().size <= 8_000)
  // A change to a table the lists read drops them all.
  await changeAndWait(api, () =>
    query(api.app.database.url, `update permissions set type = type where false`),
  )
  t.deepEqual(cache.stats(), { lists: 0, size: 0 })
  // A list reading part of the cache's tables stays kept when another changes, even while it
  // is read.
  const partial = new ListCache(feed, ['permissions', 'favorites'], 8_000)
  const favorites = { tables: ['favorites'] }
  const reading = partial.lookup('f', favorites)
  await changeAndWait(api, () =>
    query(api.app.database.url, `update permissions set type = type where false`),
  )
  reading.keeper?.finish(0)
  t.truthy(partial.lookup('f', favorites).kept)
  partial.lookup('all').keeper?.finish(0)
  t.truthy(partial.lookup('all').kept)
  await changeAndWait(api, () =>
    query(api.app.database.url, `update permissions set type = type where false`),
  )
  t.truthy(partial.lookup('f', favorites).kept)
  t.truthy(partial.lookup('all').keeper, 'a list reading every table is dropped')
  await changeAndWait(api, () =>
    query(api.app.database.url, `update favorites set modified = modified where false`),
  )
  t.truthy(partial.lookup('f', favorites).keeper)
  // A feed that is not live keeps nothing.
  const silent = new ChangeFeed(api.app.database.url, createLogger({ logLevel: 'silent' }))
  const unheard = new ListCache(silent, ['permissions'], 8_000)
  const found = unheard.lookup('a')
  found.keeper?.finish(0)
  t.truthy(unheard.lookup('a').keeper)
})

test('a user viewed again is answered without PostgreSQL; an edit or their own sign-in is in the next view, another user’s sign-in keeps it', async (t) => {
  const api = await startTestApi(t)
  const [ada, bob] = await team(api, ['ada', 'bob'])
  await feedSettled(api)
  const first = await countQueries(api, () => ada.client.fetch('/users/me.json'))
  t.true(readsList(first.statements), first.statements.join('\n'))
  const again = await countQueries(api, () => ada.client.fetch('/users/me.json'))
  t.false(readsList(again.statements), again.statements.join('\n'))
  t.deepEqual(again.result.json.body, first.result.json.body)
  // Contains other plugins load are added to each answer, not to what is kept.
  const withMfa = await ada.client.fetch('/users/me.json?contain[is_mfa_enabled]=1')
  t.is(withMfa.json.body.is_mfa_enabled, false)
  t.false('is_mfa_enabled' in (await ada.client.fetch('/users/me.json')).json.body)
  const edited = await ada.client.json(`/users/${ada.id}.json`, 'PUT', {
    profile: { first_name: 'Adele', last_name: 'Lovelace' },
  })
  t.is(edited.status, 200, edited.text)
  t.is(edited.json.body.profile.first_name, 'Adele')
  t.is((await ada.client.fetch('/users/me.json')).json.body.profile.first_name, 'Adele')
  const seen = (await ada.client.fetch('/users/me.json')).json.body
  // Bob's sign-in changes his row only.
  t.is((await gpgAuthLogin(new TestClient(api.url), bob)).stage2.status, 200)
  const afterBob = await countQueries(api, () => ada.client.fetch('/users/me.json'))
  t.false(readsList(afterBob.statements), afterBob.statements.join('\n'))
  t.deepEqual(afterBob.result.json.body, seen)
  // Ada's own sign-in on another device changes what her view shows.
  t.is((await gpgAuthLogin(new TestClient(api.url), ada)).stage2.status, 200)
  const afterAda = await countQueries(api, () => ada.client.fetch('/users/me.json'))
  t.true(readsList(afterAda.statements))
})
