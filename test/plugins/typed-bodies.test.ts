// Malformed rows in the bodies typed field by field (resource and folder shares and their
// simulations, a group update, a resource type's restore, a tag list): each is a 400 in
// passbolt's envelope, its error tree keyed by row index and field with passbolt's rule and
// message, never a 500, and nothing is written.
import test from 'ava'
import {
  adaBobAndEve,
  createPassword,
  PASSWORD_STRING,
  sendBody,
  type sqlOf,
} from '../helpers/vault.ts'

const setup = adaBobAndEve

/** Everything a refused request could have changed, to compare before and after. */
const snapshot = (sql: ReturnType<typeof sqlOf>) =>
  Promise.all([
    sql('select id, aro_foreign_key, type from permissions order by id'),
    sql('select id, user_id, resource_id from secrets order by id'),
    sql('select id, group_id, user_id, is_admin from groups_users order by id'),
    sql('select id, name from groups order by id'),
    sql('select id, deleted from resource_types order by id'),
    sql('select id, slug from tags order by id'),
  ])

const send = sendBody

const uuid = '6bfa8b5f-7c5a-4e8e-9d3c-2f7a4b1d0e11'
const hostile = [
  '\u0000',
  '\uD800',
  '<script>alert(1)</script>',
  "'; drop table users; --",
  'é'.repeat(5000),
]

test('share and simulate: each malformed row answers passbolt’s rule and message at its index and field', async (t) => {
  const { ada, bob, sql } = await setup(t)
  const resource = await createPassword(ada, 'shared')
  const before = await snapshot(sql)
  const cases: [string, unknown, unknown][] = [
    [
      'wrong types in a new permission',
      { permissions: [{ aro: 5, aro_foreign_key: 12, type: '15' }] },
      {
        permissions: {
          0: {
            aro: {
              inList: 'The access request object type should be one of the following: User, Group.',
            },
            aro_foreign_key: {
              uuid: 'The identifier of the access request object should be a valid UUID.',
            },
            type: { inList: 'The type should be one of the following: 1, 7, 15.' },
          },
        },
      },
    ],
    [
      'a row that is not an object, after a good one',
      { permissions: [{ aro: 'User', aro_foreign_key: bob.id, type: 1 }, 'nope', [1]] },
      {
        permissions: {
          1: { id: { array: 'The permissions data must be an array.' } },
          2: { id: { array: 'The permissions data must be an array.' } },
        },
      },
    ],
    [
      'an id that is not text, and a delete that is not a boolean',
      { permissions: [{ id: 5 }, { id: uuid, delete: 'yes' }] },
      {
        permissions: {
          0: { id: { exists: 'The permission does not exist.' } },
          1: { delete: { boolean: 'The delete status should be a valid boolean.' } },
        },
      },
    ],
    [
      'too many rows',
      { permissions: Array.from({ length: 10_001 }, () => ({ id: uuid, delete: true })) },
      { permissions: { hasAtMost: 'The list should hold at most 10000 items.' } },
    ],
    [
      'malformed secrets',
      {
        permissions: [],
        secrets: [{ user_id: 42, data: '' }, {}, 'junk', { user_id: null, data: null }],
      },
      {
        secrets: {
          0: {
            user_id: { uuid: 'The user identifier should be a valid UUID.' },
            data: { _empty: 'The message should not be empty.' },
          },
          1: {
            user_id: { _required: 'A user identifier is required.' },
            data: { _required: 'A message is required.' },
          },
          2: { data: { _required: 'A message is required.' } },
          3: {
            user_id: { uuid: 'The user identifier should be a valid UUID.' },
            data: { _empty: 'The message should not be empty.' },
          },
        },
      },
    ],
    [
      'lists that are not lists',
      { permissions: 'x', secrets: { 0: 1 } },
      {
        permissions: { array: 'The value should be a list.' },
        secrets: { array: 'The value should be a list.' },
      },
    ],
  ]
  for (const [label, body, errors] of cases) {
    const path = `/share/resource/${resource.id}.json`
    const answer = await send(ada, 'PUT', path, body)
    t.is(answer.status, 400, `${label}: ${answer.text.slice(0, 300)}`)
    t.is(answer.json.header.status, 'error', label)
    t.is(answer.json.header.message, 'Could not validate resource data.', label)
    t.deepEqual(answer.json.body, errors, label)
    if ((body as { secrets?: unknown }).secrets !== undefined) continue
    const simulated = await send(ada, 'POST', `/share/simulate/resource/${resource.id}.json`, body)
    t.is(simulated.status, 400, `simulated ${label}`)
    t.deepEqual(simulated.json.body, errors, `simulated ${label}`)
  }
  // Hostile text where an id or a kind is due: refused by its rule, never stored nor a 500.
  for (const text of hostile) {
    const answer = await send(ada, 'PUT', `/share/resource/${resource.id}.json`, {
      permissions: [{ aro: text, aro_foreign_key: text, type: 1 }],
      secrets: [{ user_id: text, data: text }],
    })
    t.is(answer.status, 400, JSON.stringify(text).slice(0, 40))
    t.is(answer.json.header.status, 'error')
    // Text PostgreSQL cannot store is refused before the schema; anything else by its rule.
    if (!text.includes('\u0000'))
      t.truthy(answer.json.body.permissions[0].aro.inList, JSON.stringify(text).slice(0, 40))
  }
  // A field passbolt does not know is ignored, as passbolt ignores it.
  const unknownField = await send(ada, 'POST', `/share/simulate/resource/${resource.id}.json`, {
    permissions: [{ aro: 'User', aro_foreign_key: bob.id, type: 1, rogue: { nested: true } }],
  })
  t.is(unknownField.status, 200, unknownField.text)
  t.deepEqual(unknownField.json.body.changes.added, [{ User: { id: bob.id } }])
  t.deepEqual(await snapshot(sql), before, 'no refused share wrote anything')
})

test('folder share and simulate: the same rows, the same answers', async (t) => {
  const { ada, sql } = await setup(t)
  const created = await ada.client.json('/folders.json', 'POST', { name: 'Team' })
  t.is(created.status, 200, created.text)
  const folderId: string = created.json.body.id
  const before = await snapshot(sql)
  for (const path of [
    `/share/folder/${folderId}.json`,
    `/share/simulate/folder/${folderId}.json`,
  ]) {
    const answer = await send(ada, path.includes('simulate') ? 'POST' : 'PUT', path, {
      permissions: [{ aro: 'Robot', aro_foreign_key: 'x', type: 3 }, 7],
    })
    t.is(answer.status, 400, answer.text)
    t.is(answer.json.header.message, 'Could not validate folder data.')
    t.deepEqual(answer.json.body, {
      permissions: {
        0: {
          aro: {
            inList: 'The access request object type should be one of the following: User, Group.',
          },
          aro_foreign_key: {
            uuid: 'The identifier of the access request object should be a valid UUID.',
          },
          type: { inList: 'The type should be one of the following: 1, 7, 15.' },
        },
        1: { id: { array: 'The permissions data must be an array.' } },
      },
    })
  }
  t.deepEqual(await snapshot(sql), before)
})

test('group update: malformed members and secrets answer passbolt’s tree; a name that is not text too', async (t) => {
  const { ada, bob, eve, sql } = await setup(t)
  const created = await eve.client.json('/groups.json', 'POST', {
    name: 'Ops',
    groups_users: [{ user_id: ada.id, is_admin: true }],
  })
  t.is(created.status, 200, created.text)
  const groupId: string = created.json.body.id
  const before = await snapshot(sql)
  const cases: [string, unknown, unknown][] = [
    [
      'rows of the wrong types',
      { groups_users: [{ user_id: 12, is_admin: 'maybe' }, 'x', { id: 'nope', delete: 2 }] },
      {
        groups_users: {
          0: {
            user_id: { uuid: 'The user identifier should be a valid UUID.' },
            is_admin: { boolean: 'The delete status should be a valid boolean.' },
          },
          1: { array: 'The group members should be a list.' },
          2: {
            id: { uuid: 'The identifier should be a valid UUID.' },
            delete: { boolean: 'The delete status should be a valid boolean.' },
          },
        },
      },
    ],
    [
      'members that are not a list',
      { groups_users: { user_id: bob.id } },
      { groups_users: { array: 'The group members should be a list.' } },
    ],
    [
      'too many rows',
      {
        groups_users: Array.from({ length: 10_001 }, () => ({ user_id: bob.id, is_admin: false })),
      },
      { groups_users: { array: 'The group members should be a list.' } },
    ],
    [
      'secrets that are not a list',
      { groups_users: [{ user_id: bob.id, is_admin: false }], secrets: 'x' },
      { secrets: { array: 'The secrets should be a list.' } },
    ],
    [
      'a name that is not text',
      { name: { first: 'x' } },
      { name: { utf8Extended: 'The name should be a valid UTF8 string.' } },
    ],
  ]
  for (const [label, body, errors] of cases)
    for (const path of [`/groups/${groupId}.json`, `/groups/${groupId}/dry-run.json`]) {
      const answer = await send(eve, 'PUT', path, body)
      t.is(answer.status, 400, `${label} ${path}: ${answer.text.slice(0, 300)}`)
      t.is(answer.json.header.message, 'Could not validate group data.', label)
      t.deepEqual(answer.json.body, errors, `${label} ${path}`)
    }
  for (const text of hostile) {
    const answer = await send(ada, 'PUT', `/groups/${groupId}.json`, {
      groups_users: [{ user_id: text, is_admin: text }],
      secrets: [{ resource_id: text, user_id: text, data: text }],
    })
    t.is(answer.status, 400, JSON.stringify(text).slice(0, 40))
    t.is(answer.json.header.status, 'error')
    if (!text.includes('\u0000'))
      t.truthy(answer.json.body.groups_users[0].user_id.uuid, JSON.stringify(text).slice(0, 40))
  }
  // Unknown fields on a row are ignored, as passbolt ignores them.
  const added = await send(ada, 'PUT', `/groups/${groupId}.json`, {
    groups_users: [{ user_id: bob.id, is_admin: false, rogue: 'x' }],
  })
  t.is(added.status, 200, added.text)
  t.deepEqual(
    (await sql('select user_id from groups_users where group_id = $1 order by user_id', [groupId]))
      .map((row) => row.user_id)
      .sort(),
    [ada.id, bob.id].sort(),
  )
  t.deepEqual((await snapshot(sql))[4], before[4])
})

test('resource type restore: a deleted that is not null, or another field, keeps passbolt’s own message', async (t) => {
  const { eve, sql } = await setup(t)
  const before = await snapshot(sql)
  const path = `/resource-types/${PASSWORD_STRING}.json`
  for (const [body, message] of [
    [{ deleted: 'yesterday' }, 'The deleted field must be set to null.'],
    [{ deleted: { $gt: '' } }, 'The deleted field must be set to null.'],
    [{ deleted: '\u0000' }, 'The deleted field must be set to null.'],
    [{ name: 'x' }, 'The deleted field must be set to null.'],
    [{ deleted: null, slug: 'x' }, 'It is not allowed to update these resource type properties.'],
    [{}, 'The request data can not be empty.'],
  ] as const) {
    const answer = await send(eve, 'PUT', path, body)
    t.is(answer.status, 400, JSON.stringify(body))
    t.is(answer.json.header.message, message, JSON.stringify(body))
  }
  t.deepEqual(await snapshot(sql), before)
})

test('tag lists: the rows keep passbolt’s two messages, whatever the row holds', async (t) => {
  const { ada, sql } = await setup(t)
  const resource = await createPassword(ada, 'tagged')
  const before = await snapshot(sql)
  const tag = (tags: unknown) => send(ada, 'POST', `/tags/${resource.id}.json`, { tags })
  const shape = await tag(['fine', 5, { id: 'nope' }, null])
  t.is(shape.status, 400)
  t.is(shape.json.header.message, 'Could not validate request data.')
  t.deepEqual(shape.json.body, {
    1: { type: 'The tags data should be a string or an array.' },
    2: { id: { uuid: 'The tag identifier should be a valid UUID.' } },
    3: { type: 'The tags data should be a string or an array.' },
  })
  const slugs = await tag(['', 'x'.repeat(129), '\uD800', { slug: 7 }])
  t.is(slugs.status, 400)
  t.is(slugs.json.header.message, 'Could not validate tags data.')
  t.deepEqual(Object.keys(slugs.json.body), ['0', '1', '2', '3'])
  const many = await tag(Array.from({ length: 1001 }, (_, i) => `t${i}`))
  t.is(many.status, 400)
  t.is(many.json.body.tags.hasAtMost, 'A resource can hold at most 1000 tags.')
  t.deepEqual(await snapshot(sql), before)
})
