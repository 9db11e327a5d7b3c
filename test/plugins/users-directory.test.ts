// The user directory: who sees whom, every filter and contain the clients send, the order, and
// a constant number of statements for the list whatever the row count.
import test, { type ExecutionContext } from 'ava'
import { registerUser } from '../../plugins/setup/index.ts'
import { feedSettled, startTestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { countQueries } from '../helpers/queries.ts'
import { createPassword, makeGroup, sqlOf, team } from '../helpers/vault.ts'

const CLIENT_CONTAIN =
  'contain[profile]=1&contain[gpgkey]=0&contain[groups_users]=0&contain[pending_account_recovery_request]=1&contain[account_recovery_user_setting]=1&contain[is_mfa_enabled]=1&contain[missing_metadata_key_ids]=1&contain[LastLoggedIn]=1'

const setup = async (t: ExecutionContext) => {
  const api = await startTestApi(t)
  const [admin, ada, bob] = await team(api, ['admin', 'ada', 'bob'], 'admin')
  // An invited user who has not completed setup yet (inactive).
  await registerUser(api.app.orm.em.fork(), api.app, {
    username: 'new@keyward.test',
    firstName: 'Newt',
    lastName: 'Comer',
    role: 'user',
  })
  const sql = sqlOf(api)
  const [cat] = await team(api, ['cat'])
  await sql('update users set deleted = true where id = $1', [cat.id])
  await feedSettled(api)
  return { api, admin, ada, bob, sql }
}

const usernames = (body: { username: string }[]) => body.map((user) => user.username)

test('non-administrators see active users only, administrators also inactive ones; deleted users nobody', async (t) => {
  const { admin, ada } = await setup(t)
  const seenByAda = await ada.client.fetch('/users.json')
  t.is(seenByAda.status, 200)
  t.deepEqual(usernames(seenByAda.json.body), [
    'ada@keyward.test',
    'admin@keyward.test',
    'bob@keyward.test',
  ])
  t.is(seenByAda.json.header.pagination.count, 3)
  const seenByAdmin = await admin.client.fetch('/users.json')
  t.deepEqual(usernames(seenByAdmin.json.body), [
    'ada@keyward.test',
    'admin@keyward.test',
    'bob@keyward.test',
    'new@keyward.test',
  ])
  t.deepEqual(await clientValidation('UsersCollection', seenByAdmin.json.body), {})
  const inactive = await admin.client.fetch('/users.json?filter[is-active]=0')
  t.deepEqual(usernames(inactive.json.body), ['new@keyward.test'])
  const ignored = await ada.client.fetch('/users.json?filter[is-active]=0')
  t.is(ignored.json.body.length, 3, 'is-active is an administrator filter')
})

test('the default contains are profile (with avatar), key, role and memberships; the extension contains are answered', async (t) => {
  const { api, admin, ada, bob, sql } = await setup(t)
  const groupId = await makeGroup(api, 'Accounting', [ada, bob])
  // The key's kept document follows its row (dates in UTC, whatever the offset written).
  await sql(
    "update gpgkeys set expires = '2031-02-03 04:05:06.789+02', bits = null, modified = now() where user_id = $1",
    [ada.id],
  )
  const full = (await ada.client.fetch('/users.json')).json.body
  const adaRow = full.find((user: { id: string }) => user.id === ada.id)
  t.is(adaRow.profile.first_name, 'Test')
  t.deepEqual(adaRow.profile.avatar.url, {
    medium: `${api.app.config.appUrl}img/avatar/user_medium.png`,
    small: `${api.app.config.appUrl}img/avatar/user.png`,
  })
  t.is(adaRow.gpgkey.fingerprint, ada.fingerprint)
  t.is(adaRow.gpgkey.expires, '2031-02-03T02:05:06+00:00')
  t.is(adaRow.gpgkey.bits, null)
  t.is(adaRow.role.name, 'user')
  t.like(adaRow.groups_users, [{ group_id: groupId, user_id: ada.id, is_admin: true }])
  for (const user of full) t.deepEqual(await clientValidation('UserEntity', user), {})
  // The list goes out as PostgreSQL wrote it; the view passes the response schema: same user.
  const viewed = (await ada.client.fetch(`/users/${ada.id}.json`)).json.body
  t.deepEqual(adaRow, viewed)
  t.regex(adaRow.created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/)
  t.regex(adaRow.groups_users[0].created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/)

  // The extension asks for missing metadata keys as an administrator (others may not).
  const asExtension = (await admin.client.fetch(`/users.json?${CLIENT_CONTAIN}`)).json.body
  for (const user of asExtension) {
    t.false('gpgkey' in user)
    t.false('groups_users' in user)
    t.is(user.is_mfa_enabled, false)
    t.deepEqual(user.missing_metadata_key_ids, [])
    t.truthy(user.profile.avatar.url.small)
    t.deepEqual(await clientValidation('UserEntity', user), {})
  }
  t.deepEqual(await clientValidation('UsersCollection', asExtension), {})
})

test('filters: search, has-groups (members of all), has-access (readers, direct or through a group), is-admin', async (t) => {
  const { api, admin, ada, bob, sql } = await setup(t)
  await sql("update profiles set first_name = 'Betty' where user_id = $1", [bob.id])
  const search = async (text: string) =>
    usernames((await ada.client.fetch(`/users.json?filter[search]=${text}`)).json.body)
  t.deepEqual(await search('bett'), ['bob@keyward.test'], 'first name')
  t.deepEqual(await search('ADA@'), ['ada@keyward.test'], 'username, any case')
  t.deepEqual(await search('%25'), [], 'LIKE wildcards are literal')

  const both = await makeGroup(api, 'Both', [ada, bob])
  const one = await makeGroup(api, 'One', [bob])
  const groups = async (ids: string[]) =>
    usernames(
      (
        await ada.client.fetch(
          `/users.json?${ids.map((id) => `filter[has-groups][]=${id}`).join('&')}`,
        )
      ).json.body,
    )
  t.deepEqual(await groups([both]), ['ada@keyward.test', 'bob@keyward.test'])
  t.deepEqual(await groups([both, one]), ['bob@keyward.test'])

  const resource = await createPassword(ada, 'shared')
  await sql(
    `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
     values (gen_random_uuid(), 'Resource', $1, 'Group', $2, 1)`,
    [resource.id, one],
  )
  const access = await ada.client.fetch(`/users.json?filter[has-access]=${resource.id}`)
  t.deepEqual(usernames(access.json.body), ['ada@keyward.test', 'bob@keyward.test'])
  const refused = await admin.client.fetch(`/users.json?filter[has-access]=${resource.id}`)
  t.is(refused.status, 403, 'only someone who reads the resource may ask')
  t.is(refused.json.header.message, 'This operation is not allowed for this user.')
  const many = await ada.client.fetch(
    `/users.json?filter[has-access][]=${resource.id}&filter[has-access][]=${both}`,
  )
  t.is(many.status, 400)
  t.is(many.json.header.message, 'Multiple has-access filters are not supported.')
  const bad = await ada.client.fetch('/users.json?filter[has-access]=nope')
  t.is(bad.status, 400)

  t.deepEqual(usernames((await ada.client.fetch('/users.json?filter[is-admin]=1')).json.body), [
    'admin@keyward.test',
  ])
})

test('order and pagination follow the query; bad order is a 400', async (t) => {
  const { ada, sql, bob } = await setup(t)
  await sql("update profiles set last_name = 'Aaron' where user_id = $1", [bob.id])
  const ordered = await ada.client.fetch('/users.json?order[]=Profiles.last_name desc')
  t.is(ordered.json.body.at(-1).username, 'bob@keyward.test')
  const page = await ada.client.fetch('/users.json?limit=2&page=2')
  t.deepEqual(usernames(page.json.body), ['bob@keyward.test'])
  t.deepEqual(page.json.header.pagination, { count: 3, page: 2, limit: 2 })
  const bad = await ada.client.fetch('/users.json?order[]=Users.password asc')
  t.is(bad.status, 400)
})

test('GET /users/{id}.json hides inactive users from non-administrators and answers the same contains', async (t) => {
  const { admin, ada, sql } = await setup(t)
  const [{ id: newId }] = await sql("select id from users where username = 'new@keyward.test'")
  t.is((await ada.client.fetch(`/users/${newId}.json`)).status, 404)
  const seen = await admin.client.fetch(`/users/${newId}.json?contain[is_mfa_enabled]=1`)
  t.is(seen.status, 200)
  t.is(seen.json.body.active, false)
  t.is(seen.json.body.is_mfa_enabled, false)
  t.deepEqual(await clientValidation('UserEntity', seen.json.body), {})
  t.is((await ada.client.fetch('/users/not-a-uuid.json')).status, 400)
})

test('the list costs the same number of statements for 3 users or 60, contains included', async (t) => {
  const { api, admin, ada } = await setup(t)
  const path = `/users.json?contain[profile]=1&contain[gpgkey]=1&contain[groups_users]=1&contain[role]=1&contain[is_mfa_enabled]=1&contain[missing_metadata_key_ids]=1`
  await admin.client.fetch(path)
  const few = await countQueries(api, () => admin.client.fetch(path))
  t.is(few.result.json.body.length, 4)
  const sql = sqlOf(api)
  await sql(
    `insert into users (id, role_id, username, active, deleted, created, modified)
     select gen_random_uuid(), (select id from roles where name = 'user'), 'bulk' || n || '@keyward.test', true, false, now(), now()
     from generate_series(1, 57) n`,
  )
  await sql(
    `insert into profiles (id, user_id, first_name, last_name, created, modified)
     select gen_random_uuid(), id, 'Bulk', 'User', now(), now() from users where username like 'bulk%'`,
  )
  const groupId = await makeGroup(api, 'Everyone', [ada])
  await sql(
    `insert into groups_users (id, group_id, user_id, is_admin)
     select gen_random_uuid(), $1, id, false from users where username like 'bulk%'`,
    [groupId],
  )
  const many = await countQueries(api, () => admin.client.fetch(path))
  t.is(many.result.json.body.length, 61)
  t.is(many.statements.length, few.statements.length)
  // One of them finds the metadata keys each user lacks.
  t.true(few.statements.length <= 5, few.statements.join('\n'))
})
