// GET /roles.json: the seeded roles, for signed-in users.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'

test('signed-in users list the built-in roles; guests get 401', async (t) => {
  const api = await startTestApi(t)
  t.is((await api.request('/roles.json')).status, 401)
  const { status, json } = await api.request('/roles.json', { role: 'user' })
  t.is(status, 200)
  t.is(json.header.action, (await import('../../api/envelope.ts')).actionId('RolesIndex.index'))
  t.deepEqual(
    json.body.map((r: { name: string }) => r.name),
    ['admin', 'guest', 'user'],
  )
  for (const role of json.body) {
    t.regex(role.id, /^[0-9a-f-]{36}$/)
    t.regex(role.created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/)
  }
  t.is(
    json.body.find((r: { name: string }) => r.name === 'admin').description,
    'Organization administrator',
  )
})
