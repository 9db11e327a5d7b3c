// Hostile input on the people routes (users, avatars, keys): malformed bodies, ids, queries
// and multipart parts answer 4xx in the envelope, never 500, and change nothing.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { sqlOf, team } from '../helpers/vault.ts'

const BODIES: unknown[] = [
  null,
  [],
  'text',
  42,
  { username: {} },
  { username: 'x'.repeat(10_000), profile: 'nope' },
  { profile: { first_name: ['a'], last_name: { b: 1 } } },
  { profile: { first_name: '\u0000', last_name: '\ud800' } },
  { profile: { avatar: { file: 'not a file' } } },
  { role_id: 'admin', disabled: 'yesterday' },
  { role_id: ['x'], disabled: { at: 1 } },
  { transfer: { owners: 'x', managers: [null, 5] } },
  { transfer: { owners: [{ id: {}, aco_foreign_key: [] }] } },
  { gpgkey: { armored_key: 'x' }, groups_users: [{}] },
  { __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } },
]

const QUERIES = [
  'filter[search]=%00',
  'filter[search][]=a&filter[search][x]=b',
  'filter[has-groups]=not-a-uuid',
  'filter[has-groups][]=%27%3B--',
  `filter[has-access]=${'a'.repeat(300)}`,
  'filter[has-access][]=a&filter[has-access][]=b',
  'filter[is-admin]=maybe&filter[is-active]=%7B%7D',
  'filter[modified-after]=yesterday&filter[is-deleted]=2',
  'contain[profile]=x&contain[gpgkey][]=1&contain[nope]=1',
  'order[]=Users.password&order[]=Users.username%20DROP',
  'page=-1&limit=1000000',
  'page[]=1&limit[x]=2',
]

test('hostile bodies, ids and queries on the people routes answer 4xx, never 500, and change nothing', async (t) => {
  const api = await startTestApi(t)
  const [admin, ada] = await team(api, ['admin', 'ada'], 'admin')
  const sql = sqlOf(api)
  const before = await sql(
    'select id, username, role_id, active, deleted, disabled from users order by id',
  )
  const profilesBefore = await sql(
    'select user_id, first_name, last_name from profiles order by user_id',
  )
  const ids = [ada.id, 'me', '%00', 'a'.repeat(300), '..%2F..', crypto.randomUUID().toUpperCase()]
  const answers: string[] = []
  const expectBelow500 = (label: string, status: number, text: string) => {
    if (status >= 500 || status < 200) answers.push(`${label}: ${status} ${text.slice(0, 120)}`)
  }
  for (const caller of [admin, ada]) {
    for (const body of BODIES) {
      const created = await caller.client.json('/users.json', 'POST', body)
      expectBelow500(`POST /users.json ${JSON.stringify(body)}`, created.status, created.text)
      t.true(created.status >= 400, `POST /users.json ${JSON.stringify(body)}`)
      for (const id of ids) {
        for (const [method, path] of [
          ['PUT', `/users/${id}.json`],
          ['POST', `/users/${id}.json`],
          ['DELETE', `/users/${id}/dry-run.json`],
        ] as const) {
          const answer = await caller.client.json(path, method, body)
          expectBelow500(`${method} ${path} ${JSON.stringify(body)}`, answer.status, answer.text)
        }
      }
    }
    for (const query of QUERIES)
      for (const path of ['/users.json', '/gpgkeys.json', `/users/${ada.id}.json`]) {
        const answer = await caller.client.fetch(`${path}?${query}`)
        expectBelow500(`GET ${path}?${query}`, answer.status, answer.text)
      }
    for (const path of [
      `/gpgkeys/${'a'.repeat(300)}.json`,
      '/gpgkeys/%00.json',
      '/avatars/view/%00/medium.jpg',
      `/avatars/view/${crypto.randomUUID()}/${'x'.repeat(500)}.jpg`,
    ]) {
      const answer = await caller.client.fetch(path)
      expectBelow500(`GET ${path}`, answer.status, answer.text)
      t.true(answer.status >= 400, path)
    }
  }
  // Multipart bodies that are not what the avatar upload expects.
  for (const parts of [
    [['profile[avatar][file]', new Blob([new Uint8Array(64)]), 'zeros.png']],
    [['profile[avatar][file]', new Blob(['GIF89a']), 'a.gif']],
    [
      ['profile[avatar][file]', new Blob(['x']), 'a.png'],
      ['profile[avatar][file]', new Blob(['y']), 'b.png'],
    ],
    [['profile[avatar]', 'text instead of a file']],
    [['profile', 'flat']],
  ] as [string, Blob | string, string?][][]) {
    const form = new FormData()
    for (const [name, value, filename] of parts)
      if (typeof value === 'string') form.append(name, value)
      else form.append(name, value, filename)
    const answer = await ada.client.fetch(`/users/${ada.id}.json`, { method: 'POST', body: form })
    expectBelow500(`multipart ${parts.map((p) => p[0]).join(',')}`, answer.status, answer.text)
    t.true(answer.status >= 400, parts.map((p) => p[0]).join(','))
  }
  t.deepEqual(answers, [])
  // U+0000 cannot be stored by PostgreSQL: the schema refuses it in a name, the door in a query.
  const nul = await ada.client.json(`/users/${ada.id}.json`, 'PUT', {
    profile: { first_name: 'A\u0000da' },
  })
  t.is(nul.status, 400)
  t.truthy(nul.json.body.profile.first_name)
  const nulQuery = await ada.client.fetch('/users.json?filter[search]=a%00')
  t.is(nulQuery.status, 400)
  t.is(
    nulQuery.json.header.message,
    'The request holds a null character (U+0000), which cannot be stored.',
  )
  t.deepEqual(
    await sql('select id, username, role_id, active, deleted, disabled from users order by id'),
    before,
  )
  t.deepEqual(
    await sql('select user_id, first_name, last_name from profiles order by user_id'),
    profilesBefore,
  )
  t.deepEqual(await sql('select id from avatars'), [])
  t.is(({} as Record<string, unknown>).polluted, undefined)
})
