// U+0000 in any text a client sends: PostgreSQL cannot store it, and the ORM writes values into
// the statement's text, where it would break the statement. Every route answers 400 (the
// route's own validation, or the last line of defence before a statement is sent), never 500,
// and writes nothing.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { createPassword, sqlOf, team } from '../helpers/vault.ts'

const NUL = 'a\u0000b'

test('text holding U+0000 is a 400 on every kind of route, and nothing is written', async (t) => {
  const api = await startTestApi(t)
  const [admin, ada] = await team(api, ['admin', 'ada'], 'admin')
  const password = await createPassword(ada, 'kept')
  const sql = sqlOf(api)
  const calls: [typeof ada, string, string, unknown][] = [
    [
      ada,
      'POST',
      '/resources.json',
      { name: NUL, resource_type_id: password.resource_type_id, secrets: [{ data: NUL }] },
    ],
    [ada, 'PUT', `/resources/${password.id}.json`, { name: NUL, username: NUL, uri: NUL }],
    [ada, 'POST', '/folders.json', { name: NUL }],
    [
      ada,
      'PUT',
      `/share/resource/${password.id}.json`,
      { permissions: [{ aro: 'User', aro_foreign_key: NUL, type: 1, is_new: true }] },
    ],
    [ada, 'POST', '/account/settings/themes.json', { value: NUL }],
    [ada, 'POST', `/comments/resource/${password.id}.json`, { content: NUL }],
    [ada, 'POST', `/tags/${password.id}.json`, { tags: [NUL] }],
    [ada, 'PUT', `/users/${ada.id}.json`, { profile: { first_name: NUL } }],
    [
      admin,
      'POST',
      '/users.json',
      { username: 'x@y.z', profile: { first_name: NUL, last_name: 'L' } },
    ],
    [
      admin,
      'POST',
      '/groups.json',
      { name: NUL, groups_users: [{ user_id: ada.id, is_admin: true }] },
    ],
    [admin, 'POST', '/locale/settings.json', { value: NUL }],
    [admin, 'POST', '/password-policies/settings.json', { default_generator: NUL }],
  ]
  for (const [caller, method, path, body] of calls) {
    const answer = await caller.client.json(path, method, body)
    t.is(answer.status, 400, `${method} ${path}: ${answer.text.slice(0, 200)}`)
    t.is(answer.json.header.status, 'error')
  }
  const query = await ada.client.fetch('/resources.json?filter[search]=a%00b')
  t.is(query.status, 400)
  t.is(
    query.json.header.message,
    'The request holds a null character (U+0000), which cannot be stored.',
  )
  t.deepEqual(await sql('select name from resources'), [{ name: 'kept' }])
  t.deepEqual(await sql('select id from folders'), [])
  t.deepEqual(await sql('select id from comments'), [])
  t.deepEqual(await sql('select id from groups'), [])
  t.deepEqual(await sql("select id from users where username = 'x@y.z'"), [])
})
