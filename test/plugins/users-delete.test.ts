// Deleting users: refusals with passbolt's messages and the blocking items listed, the dry run,
// the transfer of ownership, cleanup of everything the user held, atomicity, and the last
// active administrator kept under concurrent deletions.
import test, { type ExecutionContext } from 'ava'
import { definePlugin } from '../../api/plugin.ts'
import { plugins as allPlugins } from '../../plugins/index.ts'
import { userDeletion } from '../../plugins/users/index.ts'
import { changeAndWait, startTestApi, testAuthPlugin } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import {
  createPassword,
  makeGroup,
  secretInvariantViolations,
  sqlOf,
  team,
} from '../helpers/vault.ts'

const setup = async (t: ExecutionContext, extra: ReturnType<typeof definePlugin>[] = []) => {
  const api = await startTestApi(t, { plugins: [...extra, ...allPlugins, testAuthPlugin] })
  const [admin, root, ada, bob] = await team(api, ['admin', 'root', 'ada', 'bob'], 'admin')
  // A second administrator.
  await changeAndWait(api, () =>
    sqlOf(api)(
      "update users set role_id = (select id from roles where name = 'admin') where id = $1",
      [root.id],
    ),
  )
  const sql = sqlOf(api)
  const share = async (resourceId: string, userId: string, type: number) => {
    await sql(
      `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
       values (gen_random_uuid(), 'Resource', $1, 'User', $2, $3)`,
      [resourceId, userId, type],
    )
    await sql(
      "insert into secrets (id, resource_id, user_id, data) values (gen_random_uuid(), $1, $2, 'x')",
      [resourceId, userId],
    )
  }
  return { api, admin, root, ada, bob, sql, share }
}

test('a non-administrator, oneself, an unknown user and a bad id are refused with passbolt messages', async (t) => {
  const { admin, ada, bob } = await setup(t)
  const notAdmin = await ada.client.fetch(`/users/${bob.id}.json`, { method: 'DELETE' })
  t.is(notAdmin.status, 403)
  t.is(notAdmin.json.header.message, 'You are not authorized to access that location.')
  const self = await admin.client.fetch(`/users/${admin.id}.json`, { method: 'DELETE' })
  t.is(self.status, 400)
  t.is(self.json.header.message, 'You are not allowed to delete yourself.')
  const unknown = await admin.client.fetch(`/users/${crypto.randomUUID()}.json`, {
    method: 'DELETE',
  })
  t.is(unknown.status, 404)
  t.is(unknown.json.header.message, 'The user does not exist or has been already deleted.')
  const bad = await admin.client.fetch('/users/nope.json', { method: 'DELETE' })
  t.is(bad.status, 400)
  t.is(bad.json.header.message, 'The user identifier should be a valid UUID.')
})

test('sole ownership of a shared resource blocks the dry run and the deletion, listing it; a transfer unblocks it', async (t) => {
  const { api, admin, ada, bob, sql, share } = await setup(t)
  const shared = await createPassword(ada, 'shared')
  await share(shared.id, bob.id, 1)
  const dry = await admin.client.fetch(`/users/${ada.id}/dry-run.json`, { method: 'DELETE' })
  t.is(dry.status, 400)
  t.is(
    dry.json.header.message,
    'The user cannot be deleted. The user should not be sole owner of shared content, transfer the ownership to other users.',
  )
  const [listed] = dry.json.body.errors.resources.sole_owner
  t.is(listed.id, shared.id)
  t.deepEqual(await clientValidation('ResourceEntity', listed), {})
  const refused = await admin.client.fetch(`/users/${ada.id}.json`, { method: 'DELETE' })
  t.is(refused.status, 400)
  t.deepEqual(await sql('select deleted from users where id = $1', [ada.id]), [{ deleted: false }])

  const [bobPermission] = await sql(
    'select id from permissions where aco_foreign_key = $1 and aro_foreign_key = $2',
    [shared.id, bob.id],
  )
  const wrong = await admin.client.json(`/users/${ada.id}.json`, 'DELETE', {
    transfer: { owners: [{ id: bobPermission.id, aco_foreign_key: crypto.randomUUID() }] },
  })
  t.is(wrong.status, 400)
  t.is(wrong.json.header.message, 'The transfer is not authorized')
  const transfer = { owners: [{ id: bobPermission.id, aco_foreign_key: shared.id }] }
  const deleted = await admin.client.json(`/users/${ada.id}.json`, 'DELETE', { transfer })
  t.is(deleted.status, 200, deleted.text)
  t.is(deleted.json.header.message, 'The user has been deleted successfully.')
  t.deepEqual(await sql('select type from permissions where id = $1', [bobPermission.id]), [
    { type: 15 },
  ])
  t.deepEqual(await sql('select deleted from resources where id = $1', [shared.id]), [
    { deleted: false },
  ])
  t.deepEqual(await secretInvariantViolations(api), [])
  const dryOk = await admin.client.fetch(`/users/${bob.id}/dry-run.json`, { method: 'DELETE' })
  t.is(dryOk.status, 200)
  t.is(dryOk.json.header.message, 'The user can be deleted.')
  t.deepEqual(await sql('select deleted from users where id = $1', [bob.id]), [{ deleted: false }])
})

test('alone managing a group with other members blocks the deletion, listed under groups; transfer.managers unblocks it', async (t) => {
  const { api, admin, ada, bob, sql } = await setup(t)
  const groupId = await makeGroup(api, 'Ops', [ada, bob])
  const dry = await admin.client.fetch(`/users/${ada.id}/dry-run.json`, { method: 'DELETE' })
  t.is(dry.status, 400)
  t.is(
    dry.json.header.message,
    'The user cannot be deleted. The user should not be sole group manager of group(s), transfer the management to other users.',
  )
  const [listed] = dry.json.body.errors.groups.sole_manager
  t.is(listed.id, groupId)
  t.deepEqual(await clientValidation('GroupEntity', listed), {})
  const [bobMembership] = await sql(
    'select id from groups_users where group_id = $1 and user_id = $2',
    [groupId, bob.id],
  )
  const wrong = await admin.client.json(`/users/${ada.id}.json`, 'DELETE', {
    transfer: { managers: [{ id: bobMembership.id, group_id: crypto.randomUUID() }] },
  })
  t.is(wrong.status, 400)
  t.is(wrong.json.header.message, 'The transfer is not authorized.')
  const badId = await admin.client.json(`/users/${ada.id}.json`, 'DELETE', {
    transfer: { managers: [{ id: 'nope', group_id: groupId }] },
  })
  t.is(badId.status, 400)
  t.is(badId.json.header.message, 'The groups users identifiers must be valid UUID.')
  t.deepEqual(await sql('select deleted from users where id = $1', [ada.id]), [{ deleted: false }])

  const transfer = { managers: [{ id: bobMembership.id, group_id: groupId }] }
  const deleted = await admin.client.json(`/users/${ada.id}.json`, 'DELETE', { transfer })
  t.is(deleted.status, 200, deleted.text)
  t.deepEqual(
    await sql('select user_id, is_admin from groups_users where group_id = $1', [groupId]),
    [{ user_id: bob.id, is_admin: true }],
  )
  t.deepEqual(await sql('select deleted from groups where id = $1', [groupId]), [
    { deleted: false },
  ])
})

test('a shared folder the user alone owns blocks too, listed under folders', async (t) => {
  const { admin, ada, bob, sql } = await setup(t)
  const folder = await ada.client.json('/folders.json', 'POST', {
    name: 'Team',
    folder_parent_id: null,
  })
  t.is(folder.status, 200, folder.text)
  await sql(
    `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
     values (gen_random_uuid(), 'Folder', $1, 'User', $2, 1)`,
    [folder.json.body.id, bob.id],
  )
  const dry = await admin.client.fetch(`/users/${ada.id}/dry-run.json`, { method: 'DELETE' })
  t.is(dry.status, 400)
  const [listed] = dry.json.body.errors.folders.sole_owner
  t.is(listed.id, folder.json.body.id)
  t.is(listed.permissions.length, 2)
  t.deepEqual(await clientValidation('FolderEntity', listed), {})
})

test('deletion soft-deletes the user and removes permissions, secrets, favorites, folders, tags and the key', async (t) => {
  const { api, admin, ada, bob, sql, share } = await setup(t)
  const mine = await createPassword(ada, 'mine')
  const bobs = await createPassword(bob, 'bobs')
  await share(bobs.id, ada.id, 1)
  await ada.client.json(`/favorites/resource/${bobs.id}.json`, 'POST', {})
  await ada.client.json('/folders.json', 'POST', { name: 'Private', folder_parent_id: null })
  const deleted = await admin.client.fetch(`/users/${ada.id}.json`, { method: 'DELETE' })
  t.is(deleted.status, 200, deleted.text)
  t.deepEqual(await sql('select deleted from users where id = $1', [ada.id]), [{ deleted: true }])
  t.deepEqual(await sql('select deleted from gpgkeys where user_id = $1', [ada.id]), [
    { deleted: true },
  ])
  t.deepEqual(await sql('select deleted from resources where id = $1', [mine.id]), [
    { deleted: true },
  ])
  t.deepEqual(await sql('select deleted from resources where id = $1', [bobs.id]), [
    { deleted: false },
  ])
  for (const table of [
    'permissions where aro_foreign_key',
    'secrets where user_id',
    'favorites where user_id',
    'folders_relations where user_id',
  ])
    t.deepEqual(await sql(`select 1 from ${table} = $1`, [ada.id]), [], table)
  t.deepEqual(await sql("select 1 from folders where name = 'Private'"), [])
  t.deepEqual(await secretInvariantViolations(api), [])
  const list = await admin.client.fetch('/users.json')
  t.false(list.json.body.some((user: { id: string }) => user.id === ada.id))
  const again = await admin.client.fetch(`/users/${ada.id}.json`, { method: 'DELETE' })
  t.is(again.status, 404)
  t.not((await ada.client.fetch('/users/me.json')).status, 200, 'the deleted user is signed out')
})

test('a failing cleanup leaves everything as it was', async (t) => {
  const failing = definePlugin({
    name: 'failing-cleanup',
    extensions: [
      userDeletion.provide({
        cleanup: async () => {
          throw new Error('cleanup failed')
        },
      }),
    ],
  })
  const { admin, ada, sql } = await setup(t, [failing])
  const mine = await createPassword(ada, 'mine')
  const before = await sql('select count(*)::int as n from permissions')
  const answer = await admin.client.fetch(`/users/${ada.id}.json`, { method: 'DELETE' })
  t.is(answer.status, 500)
  t.deepEqual(await sql('select deleted from users where id = $1', [ada.id]), [{ deleted: false }])
  t.deepEqual(await sql('select deleted from resources where id = $1', [mine.id]), [
    { deleted: false },
  ])
  t.deepEqual(await sql('select count(*)::int as n from permissions'), before)
  t.deepEqual(
    await sql('select 1 from secrets where user_id = $1', [ada.id]).then((r) => r.length),
    1,
  )
})

test('two administrators deleting each other at once cannot leave no active administrator', async (t) => {
  const { admin, root, sql } = await setup(t)
  const answers = await Promise.all([
    admin.client.fetch(`/users/${root.id}.json`, { method: 'DELETE' }),
    root.client.fetch(`/users/${admin.id}.json`, { method: 'DELETE' }),
  ])
  t.is(answers.filter((a) => a.status === 200).length, 1, answers.map((a) => a.text).join('\n'))
  const [{ count }] = await sql(
    "select count(*)::int as count from users u join roles r on r.id = u.role_id where r.name = 'admin' and u.active and not u.deleted",
  )
  t.is(count, 1)
})
