// The resources list written by PostgreSQL (the contains clients send most) against the same
// list built on objects by the contain loaders: the same answer, accepted by the extension's
// own entities, in a constant number of statements.
import test from 'ava'
import { feedSettled, startTestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { countQueries } from '../helpers/queries.ts'
import { createPassword, encryptFor, makeGroup, sqlOf, team, V5_DEFAULT } from '../helpers/vault.ts'

const setup = async (t: Parameters<typeof startTestApi>[0], env: Record<string, string> = {}) => {
  const api = await startTestApi(t, { env })
  const [ada, bob, eve] = await team(api, ['ada', 'bob', 'eve'])
  const sql = sqlOf(api)
  const group = await makeGroup(api, 'Team', [ada, bob])
  /** A permission written directly, with the grantees' trees updated as a share would. */
  const grant = async (resourceId: string, aro: 'User' | 'Group', aroId: string, type: number) => {
    await sql(
      `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
       values (gen_random_uuid(), 'Resource', $1, $2, $3, $4)`,
      [resourceId, aro, aroId, type],
    )
    await sql(
      `insert into folders_relations (id, foreign_model, foreign_id, user_id)
       select gen_random_uuid(), 'Resource', $1, u.id from users u
       where u.id = $2 or u.id in (select user_id from groups_users where group_id = $2)
       on conflict do nothing`,
      [resourceId, aroId],
    )
  }
  return { api, ada, bob, eve, sql, group, grant }
}

/** The list as the loaders build it: `contain[resource-type]` takes the object path. */
const onObjects = (url: string) => `${url}${url.includes('?') ? '&' : '?'}contain[resource-type]=1`

const withoutType = (body: Record<string, unknown>[]) =>
  body.map(({ resource_type: _type, ...resource }) => resource)

/** Quotes, backslashes, control characters, a line separator, accents, CJK and an emoji. */
const HOSTILE = `q"uo'te \\ back\\\\slash /solidus \u0001\u001f\b\f\r\n\t \u2028\u2029 é 日本 😀 </script>`

const URLS = [
  // The extension's sync call.
  '/resources.json?contain[permission]=1&contain[favorite]=1&contain[tag]=1',
  // Its permissions dialog.
  '/resources.json?contain[permission]=1&contain[permissions.user.profile]=1&contain[permissions.group]=1',
  '/resources.json?contain[permissions]=1&contain[permissions.group]=1&sort=Resources.name&direction=desc',
  '/resources.json?contain[permissions.user.profile]=1&limit=2&page=2',
  '/resources.json?contain[favorite]=1&filter[is-favorite]=1',
  '/resources.json',
]

test('the list PostgreSQL writes is the list the loaders build, for v4 and v5, and passes the extension’s ResourceEntity', async (t) => {
  const { ada, bob, eve, sql, group, grant } = await setup(t)
  const shared = await createPassword(ada, 'shared')
  const byGroup = await createPassword(ada, 'by-group')
  const encrypted = await createPassword(ada, 'encrypted')
  await createPassword(bob, 'bobs own')
  await createPassword(eve, 'not for bob')
  await grant(shared.id, 'User', bob.id, 7)
  await grant(shared.id, 'Group', group, 1)
  await grant(shared.id, 'User', eve.id, 1)
  await grant(byGroup.id, 'Group', group, 15)
  await grant(encrypted.id, 'User', bob.id, 1)
  // A v5 resource: metadata instead of the clear fields.
  const [key] = await sql('select id from gpgkeys where user_id = $1', [ada.id])
  await sql(
    `update resources set name = null, username = null, uri = null, description = null,
       metadata = $2, metadata_key_id = $3, metadata_key_type = 'shared_key', resource_type_id = $4
     where id = $1`,
    [
      encrypted.id,
      await encryptFor(
        JSON.stringify({ object_type: 'PASSBOLT_RESOURCE_METADATA', name: 'encrypted' }),
        [ada, bob],
        ada,
      ),
      key.id,
      V5_DEFAULT,
    ],
  )
  // A folder in bob's tree, an expiry, a favorite and tags: every branch of the documents.
  const folder = await bob.client.json('/folders.json', 'POST', { name: 'Work' })
  t.is(folder.status, 200, folder.text)
  await sql(
    `update folders_relations set folder_parent_id = $3 where foreign_id = $1 and user_id = $2`,
    [shared.id, bob.id, folder.json.body.id],
  )
  await sql(`update resources set expired = now() where id = $1`, [byGroup.id])
  t.is(
    (await bob.client.fetch(`/favorites/resource/${shared.id}.json`, { method: 'POST' })).status,
    200,
  )
  t.is(
    (await ada.client.json(`/tags/${shared.id}.json`, 'POST', { tags: ['#team', 'adas'] })).status,
    200,
  )
  const tagged = await bob.client.json(`/tags/${shared.id}.json`, 'POST', {
    tags: ['#team', 'mine'],
  })
  t.is(tagged.status, 200, tagged.text)
  t.is((await ada.client.json(`/tags/${byGroup.id}.json`, 'POST', { tags: ['adas'] })).status, 200)
  // Text JSON must escape, and fields left empty: PostgreSQL writes them as the loaders do.
  const hostile = await createPassword(bob, 'hostile')
  await sql(
    `update resources set name = $2, username = null, uri = $3, description = $4 where id = $1`,
    [hostile.id, HOSTILE, `https://例え.jp/?q="x"&y=\\`, `line\nbreak\ttab \u2028 \u0001`],
  )
  t.is((await bob.client.json(`/tags/${hostile.id}.json`, 'POST', { tags: ['odd'] })).status, 200)
  await sql(`update tags set slug = $1 where slug = 'odd'`, [HOSTILE])
  // Out of bob's tree, held by ada alone: personal all the same (one holder).
  await sql(`delete from folders_relations where foreign_id = $1 and user_id = $2`, [
    encrypted.id,
    bob.id,
  ])

  for (const url of URLS) {
    const written = await bob.client.fetch(url)
    const loaded = await bob.client.fetch(onObjects(url))
    t.is(written.status, 200, url)
    t.is(loaded.status, 200, loaded.text)
    t.true(written.json.body.length > 0, url)
    t.deepEqual(written.json.body, withoutType(loaded.json.body), url)
    t.deepEqual(written.json.header.pagination, loaded.json.header.pagination, url)
    for (const resource of written.json.body)
      t.deepEqual(await clientValidation('ResourceEntity', resource), {}, url)
  }
  const sync = (await bob.client.fetch(URLS[0])).json.body as Record<string, unknown>[]
  const byName = new Map(sync.map((resource) => [resource.name ?? 'v5', resource]))
  t.deepEqual(
    (byName.get('shared')!.tags as { slug: string }[]).map((tag) => tag.slug),
    ['#team', 'mine'],
  )
  // Another user's personal tag is not bob's to see.
  t.deepEqual(byName.get('by-group')!.tags, [])
  t.like(byName.get('shared')!.favorite, { user_id: bob.id, foreign_key: shared.id })
  t.like(byName.get('shared'), { folder_parent_id: folder.json.body.id, personal: false })
  t.like(byName.get('bobs own'), { folder_parent_id: null, personal: true })
  t.like(byName.get('v5'), {
    metadata_key_type: 'shared_key',
    metadata_key_id: key.id,
    folder_parent_id: null,
    personal: true,
  })
  t.like(byName.get(HOSTILE), { username: null, tags: [{ slug: HOSTILE, is_shared: false }] })
  t.false('name' in byName.get('v5')!)
  const tree = (await bob.client.fetch(URLS[1])).json.body as {
    id: string
    permissions: { aro: string; user?: { profile: unknown }; group?: { name: string } }[]
  }[]
  const holders = tree.find((resource) => resource.id === shared.id)!.permissions
  t.is(holders.length, 4)
  for (const permission of holders)
    if (permission.aro === 'User') t.truthy(permission.user?.profile)
    else t.is(permission.group?.name, 'Team')
  // Past the last page: no rows, the total still counted.
  const past = await bob.client.fetch('/resources.json?contain[permission]=1&limit=2&page=9')
  t.deepEqual([past.json.body, past.json.header.pagination], [[], { count: 5, page: 9, limit: 2 }])
})

test('the written list costs the same statements for 10 resources and 150, whatever the contains', async (t) => {
  // Lists kept by the server would cost no statement at all: this measures the statement.
  const { api, ada, bob, group, grant } = await setup(t, { KEYWARD_LIST_CACHE_SIZE: '0' })
  const make = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const resource = await createPassword(ada, `r${String(i).padStart(3, '0')}`)
      await grant(resource.id, 'Group', group, 1)
      await grant(resource.id, 'User', bob.id, 7)
      await ada.client.json(`/tags/${resource.id}.json`, 'POST', { tags: ['#shared'] })
      await bob.client.json(`/tags/${resource.id}.json`, 'POST', { tags: ['#shared', `t${i}`] })
    }
  }
  const url = `${URLS[0]}&contain[permissions.user.profile]=1&contain[permissions.group]=1`
  const measure = async () => {
    await feedSettled(api)
    await bob.client.fetch(url)
    return countQueries(api, () => bob.client.fetch(url))
  }
  await make(0, 10)
  const small = await measure()
  t.is(small.result.json.body.length, 10)
  await make(10, 150)
  const large = await measure()
  t.is(large.result.json.body.length, 150)
  t.is(large.result.json.body[149].tags.length, 2)
  t.is(large.result.json.body[149].permissions.length, 3)
  t.is(large.statements.length, small.statements.length)
  t.log(`${small.statements.length} statements`)
})
