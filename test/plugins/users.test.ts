// Users: the view route honours `contain`, its memberships are real, and a view costs a fixed
// number of statements.
import test from 'ava'
import { feedSettled, startTestApi } from '../helpers/api.ts'
import { TestClient } from '../helpers/client.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { query } from '../helpers/database.ts'
import { jwtLogin } from '../helpers/jwt.ts'
import { countQueries } from '../helpers/queries.ts'
import { createActiveUser } from '../helpers/users.ts'

const DOMAIN = 'https://vault.keyward.test'

const setup = async (t: import('ava').ExecutionContext) => {
  const api = await startTestApi(t, { env: { KEYWARD_APP_URL: `${DOMAIN}/` } })
  const user = await createActiveUser(api, 'ada@keyward.test')
  const client = new TestClient(api.url)
  const { answer } = await jwtLogin(client, user.id, user, DOMAIN)
  const me = (contain = '') =>
    client.fetch(`/users/me.json${contain}`, {
      headers: { authorization: `Bearer ${answer!.access_token}` },
    })
  const sql = (text: string, values: unknown[] = []) => query(api.app.database.url, text, values)
  return { api, user, me, sql }
}

test('GET /users/me.json carries profile, key, role and real memberships unless contain turns them off', async (t) => {
  const { user, me, sql } = await setup(t)
  const [{ id: groupId }] = await sql(
    "insert into groups (id, name) values (gen_random_uuid(), 'Accounting') returning id",
  )
  await sql(
    "insert into groups (id, name, deleted) values (gen_random_uuid(), 'Gone', true) returning id",
  )
  const [{ id: membership }] = await sql(
    'insert into groups_users (id, group_id, user_id, is_admin) values (gen_random_uuid(), $1, $2, true) returning id',
    [groupId, user.id],
  )
  const full = (await me()).json.body
  t.is(full.id, user.id)
  t.is(full.profile.first_name, 'Test')
  t.is(full.gpgkey.fingerprint, user.fingerprint)
  t.is(full.role.name, 'user')
  t.is(full.groups_users.length, 1)
  t.like(full.groups_users[0], {
    id: membership,
    group_id: groupId,
    user_id: user.id,
    is_admin: true,
  })
  t.regex(full.groups_users[0].created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/)
  t.deepEqual(await clientValidation('UserEntity', full), {}, 'the extension accepts it')

  const lean = (
    await me('?contain[gpgkey]=0&contain[groups_users]=0&contain[role]=0&contain[profile]=0')
  ).json.body
  for (const field of ['gpgkey', 'groups_users', 'role', 'profile'])
    t.false(field in lean, `${field} left out`)
  t.is(lean.username, 'ada@keyward.test')
  t.deepEqual(await clientValidation('UserEntity', lean), {})
  const some = (await me('?contain[role]=1&contain[gpgkey]=0')).json.body
  t.truthy(some.role)
  t.false('gpgkey' in some)
  t.truthy(some.profile, 'defaults stay on unless turned off')
})

test('a bearer GET /users/me.json costs the same few statements, whatever the memberships', async (t) => {
  const { api, user, me, sql } = await setup(t)
  // The first request also fills what the server keeps between requests (the caller's
  // account state, the organisation's MFA settings).
  await feedSettled(api)
  await me()
  // A change drops the view the server keeps: both measures read it from the database.
  api.app.changes.wroteHere()
  const one = await countQueries(api, () => me())
  t.is(one.result.status, 200)
  t.true(one.statements.length >= 1, 'the view is read')
  for (let i = 0; i < 50; i++) {
    const [{ id }] = await sql(
      "insert into groups (id, name) values (gen_random_uuid(), 'g' || $1) returning id",
      [i],
    )
    await sql(
      'insert into groups_users (id, group_id, user_id) values (gen_random_uuid(), $1, $2)',
      [id, user.id],
    )
  }
  const many = await countQueries(api, () => me())
  t.is(many.result.json.body.groups_users.length, 50)
  t.is(many.statements.length, one.statements.length)
  t.true(one.statements.length <= 2, `${one.statements.length} statements`)
})
