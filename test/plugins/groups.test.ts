// Groups as the clients read and create them: the list with every filter and contain the
// extension sends (legacy names too), one group, creation by administrators with passbolt's
// refusals, and a list whose statement count does not grow with the groups.
import test, { type ExecutionContext } from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { countQueries } from '../helpers/queries.ts'
import { type Member, sqlOf, team } from '../helpers/vault.ts'

const setup = async (t: ExecutionContext) => {
  const api = await startTestApi(t)
  const [ada, bob, cat, dan] = await team(api, ['ada', 'bob', 'cat', 'dan'], 'ada')
  return { api, ada, bob, cat, dan, sql: sqlOf(api) }
}

const create = (admin: Member, name: string, members: [Member, boolean][], query = '') =>
  admin.client.json(`/groups.json${query}`, 'POST', {
    name,
    groups_users: members.map(([member, isAdmin]) => ({ user_id: member.id, is_admin: isAdmin })),
  })

test('an administrator creates a group; the answer carries its members as the client reads them', async (t) => {
  const { ada, bob, cat } = await setup(t)
  const created = await create(
    ada,
    'Accounting',
    [
      [bob, true],
      [cat, false],
    ],
    '?contain[my_group_user]=1',
  )
  t.is(created.status, 200, created.text)
  t.is(created.json.header.message, 'The group has been added successfully.')
  const group = created.json.body
  t.is(group.name, 'Accounting')
  t.is(group.deleted, false)
  t.is(group.created_by, ada.id)
  t.is(group.modified_by, ada.id)
  t.deepEqual(
    group.groups_users
      .map((m: { user_id: string; is_admin: boolean }) => `${m.user_id} ${m.is_admin}`)
      .sort(),
    [`${bob.id} true`, `${cat.id} false`].sort(),
  )
  t.is(group.my_group_user, null, 'ada is not a member')
  t.deepEqual(await clientValidation('GroupEntity', group), {})
})

test('creation refusals: non-administrator, missing or taken name, no manager, bad or inactive users, duplicates', async (t) => {
  const { ada, bob, cat, dan, sql } = await setup(t)
  const refused = await create(bob, 'Mine', [[bob, true]])
  t.is(refused.status, 403)
  t.is(refused.json.header.message, 'Access restricted to administrators.')
  t.is((await create(ada, 'Taken', [[bob, true]])).status, 200)

  const cases: [unknown, Record<string, unknown>][] = [
    [
      { groups_users: [{ user_id: bob.id, is_admin: true }] },
      { name: { _required: 'A name is required.' } },
    ],
    [
      { name: '', groups_users: [{ user_id: bob.id, is_admin: true }] },
      { name: { _empty: 'The name should not be empty.' } },
    ],
    [
      { name: 'x'.repeat(256), groups_users: [{ user_id: bob.id, is_admin: true }] },
      { name: { maxLength: 'The name length should be maximum 255 characters.' } },
    ],
    [
      { name: 42, groups_users: [{ user_id: bob.id, is_admin: true }] },
      { name: { utf8Extended: 'The name should be a valid UTF8 string.' } },
    ],
    [
      { name: 'Taken', groups_users: [{ user_id: bob.id, is_admin: true }] },
      { name: { group_unique: 'The name is already used by another group.' } },
    ],
    [
      { name: 'Nobody', groups_users: [{ user_id: bob.id, is_admin: false }] },
      { groups_users: { at_least_one_group_manager: 'A group manager should be provided.' } },
    ],
    [
      { name: 'Nobody' },
      { groups_users: { at_least_one_group_manager: 'A group manager should be provided.' } },
    ],
    [
      { name: 'Bad', groups_users: [{ user_id: 'nope', is_admin: true }] },
      { groups_users: { 0: { user_id: { uuid: 'The user identifier should be a valid UUID.' } } } },
    ],
    [
      { name: 'Bad', groups_users: [{ user_id: bob.id, is_admin: 'maybe' }] },
      {
        groups_users: {
          0: { is_admin: { boolean: 'The group manager status should be a valid boolean.' } },
        },
      },
    ],
    [
      { name: 'Bad', groups_users: [{ is_admin: true }] },
      { groups_users: { 0: { user_id: { _required: 'A user identifier is required.' } } } },
    ],
    [
      { name: 'Bad', groups_users: 'all' },
      { groups_users: { array: 'The group members should be a list.' } },
    ],
    [
      {
        name: 'Twice',
        groups_users: [
          { user_id: bob.id, is_admin: true },
          { user_id: bob.id, is_admin: false },
        ],
      },
      {
        groups_users: {
          1: { group_id: { group_user_unique: 'The user is already member of this group.' } },
        },
      },
    ],
    [
      {
        name: 'Ghost',
        groups_users: [{ user_id: '8d1f6a0e-0000-4000-8000-000000000000', is_admin: true }],
      },
      { groups_users: { 0: { user_id: { user_exists: 'The user does not exist.' } } } },
    ],
  ]
  for (const [body, errors] of cases) {
    const response = await ada.client.json('/groups.json', 'POST', body)
    t.is(response.status, 400, JSON.stringify(body).slice(0, 80))
    t.is(response.json.header.message, 'Could not validate group data.')
    t.deepEqual(response.json.body, errors, JSON.stringify(body).slice(0, 80))
  }
  await sql('update users set active = false where id = $1', [dan.id])
  await sql('update users set deleted = true where id = $1', [cat.id])
  const inactive = await create(ada, 'Sleepers', [
    [dan, true],
    [cat, false],
  ])
  t.deepEqual(inactive.json.body, {
    groups_users: {
      0: { user_id: { user_is_active: 'The user does not exist.' } },
      1: { user_id: { user_is_not_soft_deleted: 'The user does not exist.' } },
    },
  })
  t.deepEqual(
    (await sql('select name from groups order by name')).map((row) => row.name),
    ['Taken'],
    'no partial write',
  )
})

test('the list: every contain and filter the clients send, legacy names included', async (t) => {
  const { ada, bob, cat, dan, sql } = await setup(t)
  const a = (
    await create(ada, 'Alpha', [
      [bob, true],
      [cat, false],
    ])
  ).json.body.id
  const b = (
    await create(ada, 'Beta', [
      [cat, true],
      [dan, false],
    ])
  ).json.body.id
  const c = (await create(ada, 'Gamma', [[dan, true]])).json.body.id
  await sql('update groups set deleted = true where id = $1', [c])

  const plain = await bob.client.fetch('/groups.json')
  t.is(plain.status, 200)
  t.deepEqual(
    plain.json.body.map((g: { name: string }) => g.name),
    ['Alpha', 'Beta'],
    'deleted groups are not listed',
  )
  t.false('groups_users' in plain.json.body[0])
  t.deepEqual(await clientValidation('GroupsCollection', plain.json.body), {})

  const full = await bob.client.fetch(
    '/groups.json?contain[my_group_user]=1&contain[user_count]=1&contain[groups_users.user.profile]=1&contain[groups_users.user.gpgkey]=1&contain[modifier.profile]=1',
  )
  t.is(full.status, 200)
  const [alpha, beta] = full.json.body
  t.is(alpha.user_count, 2)
  t.is(alpha.my_group_user.user_id, bob.id)
  t.true(alpha.my_group_user.is_admin)
  t.is(beta.my_group_user, null)
  t.is(alpha.modifier.id, ada.id)
  t.is(alpha.modifier.profile.first_name, 'Test')
  const member = alpha.groups_users.find((m: { user_id: string }) => m.user_id === cat.id)
  t.is(member.user.username, 'cat@keyward.test')
  t.is(member.user.profile.user_id, cat.id)
  t.is(member.user.gpgkey.fingerprint, cat.fingerprint)
  t.deepEqual(await clientValidation('GroupsCollection', full.json.body), {})
  t.deepEqual(await clientValidation('GpgkeyEntity', member.user.gpgkey), {})
  t.deepEqual(await clientValidation('UserEntity', member.user), {})

  // What the extension sends on the users workspace (legacy singular contains).
  const legacy = await bob.client.fetch(
    '/groups.json?contain[my_group_user]=1&contain[modifier]=0&contain[group_user]=1',
  )
  t.is(legacy.json.body[1].groups_users.length, 2)
  t.false('modifier' in legacy.json.body[1])
  const legacyUser = await bob.client.fetch('/groups.json?contain[group_user.user.profile]=1')
  t.is(legacyUser.json.body[0].groups_users[0].user.profile.last_name, 'User')
  const users = await bob.client.fetch('/groups.json?contain[users]=1')
  t.deepEqual(
    users.json.body[0].users.map((u: { id: string }) => u.id).sort(),
    [bob.id, cat.id].sort(),
  )

  const names = async (query: string) =>
    (await bob.client.fetch(`/groups.json?${query}`)).json.body.map((g: { name: string }) => g.name)
  t.deepEqual(await names(`filter[has-users][]=${cat.id}`), ['Alpha', 'Beta'])
  t.deepEqual(await names(`filter[has-users]=${cat.id},${dan.id}`), ['Beta'])
  t.deepEqual(await names(`filter[has-users][]=${bob.id}&filter[has-users][]=${dan.id}`), [])
  t.deepEqual(await names(`filter[has-managers][]=${cat.id}`), ['Beta'])
  t.deepEqual(await names(`filter[has-managers][]=${dan.id}`), [], 'only live groups')
  t.deepEqual(await names('order[]=Group.name DESC'), ['Beta', 'Alpha'])
  const bad = await bob.client.fetch('/groups.json?filter[has-users][]=nope')
  t.is(bad.status, 400)
  t.is(bad.json.header.message, 'Invalid filter. "nope" is not a valid value for filter has-users.')
  t.is((await bob.client.fetch('/groups.json?order[]=Group.secret')).status, 400)

  const one = await cat.client.fetch(
    `/groups/${b}.json?contain[my_group_user]=1&contain[user_count]=1`,
  )
  t.is(one.status, 200)
  t.is(one.json.body.name, 'Beta')
  t.is(one.json.body.user_count, 2)
  t.true(one.json.body.my_group_user.is_admin)
  t.deepEqual(await clientValidation('GroupEntity', one.json.body), {})
  const badId = await cat.client.fetch('/groups/nope.json')
  t.is(badId.status, 400)
  t.is(badId.json.header.message, 'The group id is not valid.')
  for (const id of [c, '8d1f6a0e-0000-4000-8000-000000000000']) {
    const missing = await cat.client.fetch(`/groups/${id}.json`)
    t.is(missing.status, 404)
    t.is(missing.json.header.message, 'The group does not exist.')
  }
  t.truthy(a)
})

test('the list runs the same number of statements for 3 groups and for 30', async (t) => {
  const { api, ada, bob, cat, dan } = await setup(t)
  const url =
    '/groups.json?contain[my_group_user]=1&contain[user_count]=1&contain[groups_users.user.profile]=1&contain[groups_users.user.gpgkey]=1&contain[modifier.profile]=1&contain[users]=1'
  const countFor = async () => {
    // A first request reads the caller's account state again after changes; it is kept after.
    await bob.client.fetch(url)
    const { result, statements } = await countQueries(api, () => bob.client.fetch(url))
    t.is(result.status, 200)
    return statements.length
  }
  for (let i = 0; i < 3; i++)
    await create(ada, `G${i}`, [
      [bob, true],
      [cat, false],
    ])
  const few = await countFor()
  for (let i = 3; i < 30; i++)
    await create(ada, `G${i}`, [
      [cat, true],
      [dan, false],
      [bob, false],
    ])
  const many = await countFor()
  t.is(many, few)
  t.true(few <= 12, `${few} statements`)
})

test('hostile bodies and ids on every group route answer 4xx, never 500', async (t) => {
  const { api, ada, bob } = await setup(t)
  const groupId = (
    await create(ada, 'Target', [
      [ada, true],
      [bob, false],
    ])
  ).json.body.id
  const bodies: unknown[] = [
    null,
    [],
    'text',
    42,
    { name: {} },
    { name: ['a'], groups_users: {} },
    { groups_users: [{ user_id: ['a'], is_admin: { x: 1 } }] },
    { groups_users: [{ id: 12, delete: [] }] },
    { groups_users: [{ id: groupId, is_admin: 'x', delete: 1, user_id: bob.id }] },
    { secrets: [{ resource_id: {}, user_id: null, data: 7 }] },
    { secrets: 'all' },
    { transfer: { owners: 'x' } },
    { transfer: { owners: [null, 5] } },
    { name: '\u0000' },
    { name: '\ud800' },
  ]
  const paths = [
    ['POST', '/groups.json'],
    ['PUT', `/groups/${groupId}.json`],
    ['PUT', `/groups/${groupId}/dry-run.json`],
    ['DELETE', `/groups/${groupId}/dry-run.json`],
    ['PUT', '/groups/%00.json'],
    ['PUT', `/groups/${'a'.repeat(300)}.json`],
    ['DELETE', '/groups/..%2F.json'],
  ]
  for (const [method, path] of paths)
    for (const body of bodies) {
      const response = await ada.client.json(path, method, body)
      // Bodies that ask for nothing valid may pass as no change at all; none may break, and
      // none creates a group.
      t.true(
        response.status < 500 && (response.status >= 400 || method !== 'POST'),
        `${method} ${path} ${JSON.stringify(body)}: ${response.status} ${response.text.slice(0, 120)}`,
      )
    }
  for (const query of [
    'contain[groups_users]=maybe',
    'contain=1',
    'filter=1',
    `filter[has-users][]=${'x'.repeat(5000)}`,
    'order[]=Group.name%20SIDEWAYS',
  ])
    t.is((await bob.client.fetch(`/groups.json?${query}`)).status, 400, query)
  t.is(api.logs.filter((line) => Number(line.level) >= 50).length, 0, 'no server error logged')
  const after = await bob.client.fetch(`/groups/${groupId}.json?contain[groups_users]=1`)
  t.is(after.json.body.name, 'Target')
  t.is(after.json.body.groups_users.length, 2, 'the group is unchanged')
})
