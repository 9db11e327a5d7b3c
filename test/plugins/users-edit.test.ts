// Creating and editing users: POST /users.json (administrators; inactive user, invitation, 400
// on a taken username), PUT /users/{id}.json (own names, administrators' role and suspension,
// refusals), and the last active administrator kept even under concurrent demotions.
import test, { type ExecutionContext } from 'ava'
import { runInTransaction } from '../../api/db/transaction.ts'
import { HttpError } from '../../api/errors.ts'
import { editUser } from '../../plugins/users/edit.ts'
import { changeAndWait, feedSettled, startTestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { sqlOf, team } from '../helpers/vault.ts'

const setup = async (t: ExecutionContext) => {
  const api = await startTestApi(t)
  const [admin, root, ada, bob] = await team(api, ['admin', 'root', 'ada', 'bob'], 'admin')
  // A second administrator.
  await changeAndWait(api, () =>
    sqlOf(api)(
      "update users set role_id = (select id from roles where name = 'admin') where id = $1",
      [root.id],
    ),
  )
  const sql = sqlOf(api)
  const roleId = async (name: string) =>
    (await sql('select id from roles where name = $1', [name]))[0].id as string
  return { api, admin, root, ada, bob, sql, roleId }
}

test('POST /users.json: administrators register an inactive user who gets the invitation; duplicates are 400', async (t) => {
  const { admin, ada, sql, roleId } = await setup(t)
  const body = {
    username: 'Newt@Keyward.test',
    profile: { first_name: 'Newt', last_name: 'Comer' },
    role_id: await roleId('admin'),
  }
  const created = await admin.client.json('/users.json', 'POST', body)
  t.is(created.status, 200, created.text)
  t.is(
    created.json.header.message,
    'The user was successfully added. This user now need to complete the setup.',
  )
  t.like(created.json.body, {
    username: 'newt@keyward.test',
    active: false,
    role: { name: 'admin' },
  })
  t.deepEqual(await clientValidation('UserEntity', created.json.body), {})
  const [token] = await sql(
    "select type from authentication_tokens where user_id = $1 and type = 'register'",
    [created.json.body.id],
  )
  t.truthy(token, 'a setup invitation token exists')

  const again = await admin.client.json('/users.json', 'POST', body)
  t.is(again.status, 400)
  t.truthy(again.json.body.username.uniqueUsername)
  const badEmail = await admin.client.json('/users.json', 'POST', { ...body, username: 'nope' })
  t.is(badEmail.status, 400)
  t.truthy(badEmail.json.body.username)
  const guest = await admin.client.json('/users.json', 'POST', {
    ...body,
    username: 'g@keyward.test',
    role_id: await roleId('guest'),
  })
  t.is(guest.status, 400)
  t.truthy(guest.json.body.role_id)
  const refused = await ada.client.json('/users.json', 'POST', {
    ...body,
    username: 'x@keyward.test',
  })
  t.is(refused.status, 403)
  t.is(refused.json.header.message, 'Only administrators can add new users.')
})

test('PUT /users/{id}.json: a user edits their own names, never their username, role or key', async (t) => {
  const { ada, bob, roleId } = await setup(t)
  const edited = await ada.client.json(`/users/${ada.id}.json`, 'PUT', {
    username: 'changed@keyward.test',
    profile: { first_name: 'Ada', last_name: 'Lovelace' },
  })
  t.is(edited.status, 200, edited.text)
  t.is(edited.json.header.message, 'The user has been updated successfully.')
  t.like(edited.json.body, {
    username: 'ada@keyward.test',
    profile: { first_name: 'Ada', last_name: 'Lovelace' },
  })
  t.deepEqual(await clientValidation('UserEntity', edited.json.body), {})

  const other = await ada.client.json(`/users/${bob.id}.json`, 'PUT', {
    profile: { first_name: 'X' },
  })
  t.is(other.status, 403)
  t.is(other.json.header.message, 'You are not authorized to access that location.')
  const role = await ada.client.json(`/users/${ada.id}.json`, 'PUT', {
    role_id: await roleId('admin'),
  })
  t.is(role.status, 403)
  t.is(role.json.header.message, 'You are not authorized to edit the role.')
  const key = await ada.client.json(`/users/${ada.id}.json`, 'PUT', {
    gpgkey: { armored_key: 'x' },
  })
  t.is(key.status, 400)
  t.is(key.json.header.message, 'Updating the OpenPGP key is not allowed.')
  const empty = await ada.client.json(`/users/${ada.id}.json`, 'PUT', {})
  t.is(empty.status, 400)
  t.is(empty.json.header.message, 'Some user data should be provided.')
  const blank = await ada.client.json(`/users/${ada.id}.json`, 'PUT', {
    profile: { first_name: '' },
  })
  t.is(blank.status, 400)
  t.truthy(blank.json.body.profile.first_name)
})

test('administrators change role and suspension of others; a suspended user is refused at once', async (t) => {
  const { admin, ada, roleId } = await setup(t)
  const promoted = await admin.client.json(`/users/${ada.id}.json`, 'PUT', {
    role_id: await roleId('admin'),
  })
  t.is(promoted.status, 200, promoted.text)
  t.is(promoted.json.body.role.name, 'admin')
  const disabled = await admin.client.json(`/users/${ada.id}.json`, 'PUT', {
    disabled: '2020-01-01T00:00:00+00:00',
  })
  t.is(disabled.status, 200, disabled.text)
  t.is(disabled.json.body.disabled, '2020-01-01T00:00:00+00:00')
  const after = await ada.client.fetch('/users/me.json')
  t.not(after.status, 200, 'the suspended user is signed out')
  const guest = await admin.client.json(`/users/${ada.id}.json`, 'PUT', {
    role_id: await roleId('guest'),
  })
  t.is(guest.status, 400)
})

test('the last active administrator cannot be demoted or suspended, even by two concurrent requests', async (t) => {
  const { api, admin, root, sql, roleId } = await setup(t)
  const userRole = await roleId('user')
  // Two administrators demote each other at the same time: one must be refused.
  const answers = await Promise.all([
    admin.client.json(`/users/${root.id}.json`, 'PUT', { role_id: userRole }),
    root.client.json(`/users/${admin.id}.json`, 'PUT', { role_id: userRole }),
  ])
  // Refused by the lock (400 lastAdmin) or, when the other change landed before this request was
  // authorised, because its caller is no longer an administrator (403).
  t.is(answers.filter((a) => a.status === 200).length, 1)
  const refusedAnswer = answers.find((a) => a.status !== 200)!
  if (refusedAnswer.status === 400) t.truthy(refusedAnswer.json.body.role_id.lastAdmin)
  else t.is(refusedAnswer.status, 403)
  const [{ count }] = await sql(
    "select count(*)::int as count from users u join roles r on r.id = u.role_id where r.name = 'admin' and u.active and not u.deleted and u.disabled is null",
  )
  t.is(count, 1)
  await feedSettled(api)
  const survivor = answers[0].status === 200 ? admin : root
  const self = await survivor.client.json(`/users/${survivor.id}.json`, 'PUT', {
    role_id: userRole,
  })
  t.is(self.status, 400)
  t.is(self.json.body.role_id.lastAdmin, 'At least one active administrator is required.')
})

test('two demotions of the last two administrators in overlapping transactions: the second waits and is refused', async (t) => {
  const { api, admin, root, sql, roleId } = await setup(t)
  const userRole = await roleId('user')
  const as = (member: { id: string; username: string }) =>
    ({ id: member.id, username: member.username, role: 'admin' }) as const
  let firstDone = false
  const first = runInTransaction(api.app.orm.em.fork(), async (tx) => {
    await editUser(tx, api.app, as(admin), root.id, { role_id: userRole })
    // Hold the transaction open while the second one starts.
    await new Promise((resolve) => setTimeout(resolve, 400))
    firstDone = true
  })
  await new Promise((resolve) => setTimeout(resolve, 100))
  const second = runInTransaction(api.app.orm.em.fork(), (tx) =>
    editUser(tx, api.app, as(root), admin.id, { role_id: userRole }).then(() => firstDone),
  )
  await first
  const error = await t.throwsAsync(second)
  t.true(error instanceof HttpError)
  t.deepEqual((error as HttpError).body, {
    role_id: { lastAdmin: 'At least one active administrator is required.' },
  })
  t.deepEqual(
    await sql(
      "select u.id from users u join roles r on r.id = u.role_id where r.name = 'admin' and not u.deleted",
    ),
    [{ id: admin.id }],
  )
})
