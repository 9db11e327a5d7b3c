// Deleting groups: refused while the group alone owns shared items (with passbolt's message
// and body, on the dry run too) unless ownership is handed over; otherwise the group goes with
// its memberships, permissions and the secrets its members no longer reach. And the groups'
// own deletion hooks for a deleted user, called the way the deleting plugin calls them.
import test, { type ExecutionContext } from 'ava'
import { runInTransaction } from '../../api/db/transaction.ts'
import { type DeletionSubject, userDeletion } from '../../plugins/users/index.ts'
import { startTestApi, type TestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import {
  createPassword,
  encryptFor,
  type Member,
  secretInvariantViolations,
  sqlOf,
  team,
} from '../helpers/vault.ts'

const setup = async (t: ExecutionContext) => {
  const api = await startTestApi(t)
  const everyone = await team(api, ['ada', 'bob', 'cat', 'eve'], 'eve')
  t.teardown(async () => {
    const violations = await secretInvariantViolations(api).catch(() => [])
    if (violations.length) throw new Error(`secret invariant broken: ${violations.join(', ')}`)
  })
  const [ada, bob, cat, eve] = everyone
  const sql = sqlOf(api)
  const makeGroup = async (name: string, members: [Member, boolean][]) => {
    const created = await eve.client.json('/groups.json', 'POST', {
      name,
      groups_users: members.map(([m, isAdmin]) => ({ user_id: m.id, is_admin: isAdmin })),
    })
    if (created.status !== 200) throw new Error(created.text)
    return created.json.body.id as string
  }
  /** Gives the group `type` on the resource, with the secrets its members need. */
  const shareWithGroup = async (
    owner: Member,
    resourceId: string,
    groupId: string,
    type: number,
  ) => {
    const permissions = [{ aro: 'Group', aro_foreign_key: groupId, aco: 'Resource', type }]
    const simulated = await owner.client.json(
      `/share/simulate/resource/${resourceId}.json`,
      'POST',
      {
        permissions,
      },
    )
    const secrets = await Promise.all(
      simulated.json.body.changes.added.map(async ({ User: { id } }: { User: { id: string } }) => ({
        user_id: id,
        resource_id: resourceId,
        data: await encryptFor('{"password":"x"}', [everyone.find((m) => m.id === id)!], owner),
      })),
    )
    const shared = await owner.client.json(`/share/resource/${resourceId}.json`, 'PUT', {
      permissions,
      secrets,
    })
    if (shared.status !== 200) throw new Error(shared.text)
  }
  /** Makes the caller's own permission on the resource a read one. */
  const demote = async (member: Member, resourceId: string) =>
    sql(`update permissions set type = 1 where aco_foreign_key = $1 and aro_foreign_key = $2`, [
      resourceId,
      member.id,
    ])
  return { api, ada, bob, cat, eve, sql, makeGroup, shareWithGroup, demote }
}

const cannotDelete =
  'The group cannot be deleted. The group should not be sole owner of shared content, transfer the ownership to other users.'

test('a group alone owning a shared resource is not deleted until ownership is handed over', async (t) => {
  const { ada, bob, eve, sql, makeGroup, shareWithGroup, demote } = await setup(t)
  const groupId = await makeGroup('Owners', [
    [bob, true],
    [ada, false],
  ])
  const resource = await createPassword(ada, 'shared')
  await shareWithGroup(ada, resource.id, groupId, 15)
  await demote(ada, resource.id)
  for (const path of [`/groups/${groupId}/dry-run.json`, `/groups/${groupId}.json`]) {
    const refused = await bob.client.json(path, 'DELETE', {})
    t.is(refused.status, 400, path)
    t.is(refused.json.header.message, cannotDelete)
    const [listed] = refused.json.body.errors.resources.sole_owner
    t.is(listed.id, resource.id)
    t.is(listed.permissions.length, 2)
    t.deepEqual(await clientValidation('ResourceEntity', listed), {})
  }
  const [adaPermission] = await sql(
    'select id from permissions where aco_foreign_key = $1 and aro_foreign_key = $2',
    [resource.id, ada.id],
  )
  const wrongTransfer = await eve.client.json(`/groups/${groupId}.json`, 'DELETE', {
    transfer: { owners: [{ id: adaPermission.id, aco_foreign_key: groupId }] },
  })
  t.is(wrongTransfer.status, 400)
  t.is(wrongTransfer.json.header.message, 'The transfer is not authorized')
  const badTransfer = await eve.client.json(`/groups/${groupId}.json`, 'DELETE', {
    transfer: { owners: [{ id: 'nope', aco_foreign_key: resource.id }] },
  })
  t.is(badTransfer.json.header.message, 'The permissions identifiers must be valid UUID.')
  const deleted = await eve.client.json(`/groups/${groupId}.json`, 'DELETE', {
    transfer: { owners: [{ id: adaPermission.id, aco_foreign_key: resource.id }] },
  })
  t.is(deleted.status, 200, deleted.text)
  t.is(deleted.json.header.message, 'The group was deleted successfully.')
  t.deepEqual(await sql('select type from permissions where id = $1', [adaPermission.id]), [
    { type: 15 },
  ])
  t.deepEqual(await sql('select deleted from groups where id = $1', [groupId]), [{ deleted: true }])
  t.deepEqual(await sql('select user_id from secrets where resource_id = $1', [resource.id]), [
    { user_id: ada.id },
  ])
})

test('deleting a group takes its memberships, permissions, what only it reached, and members’ lost secrets and tree entries', async (t) => {
  const { ada, bob, cat, sql, makeGroup, shareWithGroup } = await setup(t)
  const groupId = await makeGroup('Readers', [
    [ada, true],
    [bob, false],
  ])
  const read = await createPassword(ada, 'read-only')
  await shareWithGroup(ada, read.id, groupId, 1)
  const groupOnly = await createPassword(cat, 'group-only')
  await shareWithGroup(cat, groupOnly.id, groupId, 15)
  await sql('delete from permissions where aco_foreign_key = $1 and aro_foreign_key = $2', [
    groupOnly.id,
    cat.id,
  ])
  await sql('delete from secrets where resource_id = $1 and user_id = $2', [groupOnly.id, cat.id])
  await sql('delete from folders_relations where foreign_id = $1 and user_id = $2', [
    groupOnly.id,
    cat.id,
  ])
  t.is((await bob.client.fetch('/resources.json')).json.body.length, 2)

  const dryRun = await ada.client.json(`/groups/${groupId}/dry-run.json`, 'DELETE', {})
  t.is(dryRun.status, 200, dryRun.text)
  t.is(dryRun.json.header.message, 'The group can be deleted.')
  t.deepEqual(await sql('select deleted from groups where id = $1', [groupId]), [
    { deleted: false },
  ])

  const notManager = await bob.client.json(`/groups/${groupId}.json`, 'DELETE', {})
  t.is(notManager.status, 403)
  t.is(notManager.json.header.message, 'You are not authorized to access that location.')
  const deleted = await ada.client.json(`/groups/${groupId}.json`, 'DELETE', {})
  t.is(deleted.status, 200, deleted.text)
  t.deepEqual(await sql('select 1 from groups_users where group_id = $1', [groupId]), [])
  t.deepEqual(await sql('select 1 from permissions where aro_foreign_key = $1', [groupId]), [])
  t.deepEqual(await sql('select 1 from secrets where user_id = $1', [bob.id]), [])
  t.deepEqual(await sql('select 1 from folders_relations where user_id = $1', [bob.id]), [])
  t.deepEqual(await sql('select deleted from resources where id = $1', [groupOnly.id]), [
    { deleted: true },
  ])
  t.deepEqual((await bob.client.fetch('/resources.json')).json.body, [])
  t.is((await ada.client.fetch(`/groups/${groupId}.json`)).status, 404)
  t.deepEqual(
    (await ada.client.fetch('/groups.json')).json.body,
    [],
    'the deleted group is no longer listed',
  )

  const again = await ada.client.json(`/groups/${groupId}.json`, 'DELETE', {})
  t.is(again.status, 403, 'ada no longer manages it')
})

test('delete refusals: bad id, unknown or deleted group', async (t) => {
  const { eve, bob, makeGroup } = await setup(t)
  const badId = await eve.client.json('/groups/nope.json', 'DELETE', {})
  t.is(badId.status, 400)
  t.is(badId.json.header.message, 'The group identifier should be a valid UUID.')
  const unknown = await eve.client.json(
    '/groups/8d1f6a0e-0000-4000-8000-000000000000.json',
    'DELETE',
    {},
  )
  t.is(unknown.status, 404)
  t.is(unknown.json.header.message, 'The group does not exist or has been already deleted.')
  const groupId = await makeGroup('Gone', [[bob, true]])
  t.is((await eve.client.json(`/groups/${groupId}.json`, 'DELETE', {})).status, 200)
  const twice = await eve.client.json(`/groups/${groupId}.json`, 'DELETE', {})
  t.is(twice.status, 404)
  const stranger = await bob.client.json(
    '/groups/8d1f6a0e-0000-4000-8000-000000000000.json',
    'DELETE',
    {},
  )
  t.is(stranger.status, 403, 'a non-administrator learns nothing of unknown groups')
})

const hooks = (api: TestApi) =>
  userDeletion.of(api.app.plugins.filter((plugin) => plugin.name === 'groups'))[0]

const blockers = (api: TestApi, subject: DeletionSubject) =>
  runInTransaction(api.app.orm.em.fork(), (em) => hooks(api).blockers!(em, subject, api.app))

const cleanup = (api: TestApi, subject: DeletionSubject) =>
  runInTransaction(api.app.orm.em.fork(), (em) => hooks(api).cleanup!(em, subject, api.app))

test('a user alone managing a group with other members blocks their deletion; cleanup takes their memberships and the groups they were alone in', async (t) => {
  const { api, ada, bob, cat, sql, makeGroup } = await setup(t)
  const blocking = await makeGroup('Blocking', [
    [bob, true],
    [cat, false],
  ])
  await makeGroup('Shared lead', [
    [bob, true],
    [ada, true],
  ])
  const alone = await makeGroup('Alone', [[bob, true]])
  await sql(
    `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
     values (gen_random_uuid(), 'Folder', gen_random_uuid(), 'Group', $1, 15)`,
    [alone],
  )
  const found = await blockers(api, { kind: 'User', id: bob.id })
  const groups = (found.groups as { sole_manager: Record<string, unknown>[] }).sole_manager
  t.deepEqual(
    groups.map((g) => g.id),
    [blocking],
  )
  const members = groups[0].groups_users as { user: { profile: { first_name: string } } }[]
  t.is(members.length, 2)
  t.is(members[0].user.profile.first_name, 'Test')
  t.deepEqual(await clientValidation('GroupEntity', groups[0]), {})
  t.deepEqual(await blockers(api, { kind: 'User', id: cat.id }), {})
  t.deepEqual(await blockers(api, { kind: 'Group', id: blocking }), {})

  await cleanup(api, { kind: 'User', id: cat.id })
  t.deepEqual(await sql('select 1 from groups_users where user_id = $1', [cat.id]), [])
  await cleanup(api, { kind: 'User', id: bob.id })
  t.deepEqual(await sql('select 1 from groups_users where user_id = $1', [bob.id]), [])
  t.deepEqual(
    await sql('select name, deleted from groups order by name'),
    [
      { name: 'Alone', deleted: true },
      { name: 'Blocking', deleted: true },
      { name: 'Shared lead', deleted: false },
    ],
    'groups left empty are deleted too',
  )
  t.deepEqual(await sql('select 1 from permissions where aro_foreign_key = $1', [alone]), [])
})

test('a group alone owning a shared folder is not deleted; a folder only it reached goes with it', async (t) => {
  const { ada, bob, eve, sql, makeGroup } = await setup(t)
  const groupId = await makeGroup('Keepers', [
    [ada, true],
    [bob, false],
  ])
  const folderFor = async (name: string) => {
    const created = await ada.client.json('/folders.json', 'POST', { name })
    const shared = await ada.client.json(`/share/folder/${created.json.body.id}.json`, 'PUT', {
      permissions: [{ aro: 'Group', aro_foreign_key: groupId, aco: 'Folder', type: 15 }],
    })
    if (shared.status !== 200) throw new Error(shared.text)
    return created.json.body.id as string
  }
  const shared = await folderFor('Shared with ada')
  const groupOnly = await folderFor('Group only')
  await sql(`update permissions set type = 1 where aco_foreign_key = $1 and aro = 'User'`, [shared])
  await sql(`delete from permissions where aco_foreign_key = $1 and aro = 'User'`, [groupOnly])
  await sql(`delete from folders_relations where foreign_id = $1 and user_id <> $2`, [
    groupOnly,
    bob.id,
  ])

  const refused = await eve.client.json(`/groups/${groupId}/dry-run.json`, 'DELETE', {})
  t.is(refused.status, 400)
  t.is(refused.json.header.message, cannotDelete)
  const [listed] = refused.json.body.errors.folders.sole_owner
  t.is(listed.id, shared)
  t.is(listed.permissions.length, 2)
  t.true(listed.permissions.some((p: { group?: { name: string } }) => p.group?.name === 'Keepers'))
  t.deepEqual(await clientValidation('FolderEntity', listed), {})
  t.false('resources' in refused.json.body.errors)

  await sql(`update permissions set type = 15 where aco_foreign_key = $1 and aro = 'User'`, [
    shared,
  ])
  const deleted = await eve.client.json(`/groups/${groupId}.json`, 'DELETE', {})
  t.is(deleted.status, 200, deleted.text)
  t.deepEqual(await sql('select name from folders order by name'), [{ name: 'Shared with ada' }])
  t.deepEqual(await sql('select 1 from folders_relations where user_id = $1', [bob.id]), [])
  t.deepEqual(
    (await ada.client.fetch('/folders.json')).json.body.map((f: { name: string }) => f.name),
    ['Shared with ada'],
  )
})
