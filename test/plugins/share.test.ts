// Sharing as the extension plays it: simulate, encrypt one secret per user who gains access,
// share; with groups, removals, every refusal passbolt makes, and concurrent shares of one
// resource. After each test, every user who can read a resource has exactly one secret for it.
import test, { type ExecutionContext } from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import {
  createPassword,
  decryptAs,
  encryptFor,
  type Member,
  makeGroup,
  secretInvariantViolations,
  sqlOf,
  team,
} from '../helpers/vault.ts'

const setup = async (t: ExecutionContext, names = ['ada', 'bob', 'cat', 'dan']) => {
  const api = await startTestApi(t)
  const members = await team(api, names)
  t.teardown(async () => {
    // The invariant holds after every test, whatever it did.
    const violations = await secretInvariantViolations(api).catch(() => [])
    if (violations.length) throw new Error(`secret invariant broken: ${violations.join(', ')}`)
  })
  return { api, members, sql: sqlOf(api) }
}

const plaintext = '{"password":"shared-pw","description":"notes"}'

/** The extension's share: simulate, then one secret per added user, then the share itself. */
const share = async (
  owner: Member,
  resourceId: string,
  permissions: Record<string, unknown>[],
  everyone: Member[],
) => {
  const simulated = await owner.client.json(`/share/simulate/resource/${resourceId}.json`, 'POST', {
    permissions,
  })
  if (simulated.status !== 200) return simulated
  const added: string[] = simulated.json.body.changes.added.map(
    (a: { User: { id: string } }) => a.User.id,
  )
  const secrets = await Promise.all(
    added.map(async (id) => ({
      user_id: id,
      resource_id: resourceId,
      data: await encryptFor(plaintext, [everyone.find((m) => m.id === id)!], owner),
    })),
  )
  return owner.client.json(`/share/resource/${resourceId}.json`, 'PUT', { permissions, secrets })
}

const userPermission = (resourceId: string, user: Member, type: number) => ({
  aco: 'Resource',
  aro: 'User',
  aco_foreign_key: resourceId,
  aro_foreign_key: user.id,
  type,
})

test('sharing with a user: the simulation names them, the share stores their secret, they read it', async (t) => {
  const { members } = await setup(t)
  const [ada, bob] = members
  const resource = await createPassword(ada, 'shared', 'shared-pw')
  const simulated = await ada.client.json(`/share/simulate/resource/${resource.id}.json`, 'POST', {
    permissions: [userPermission(resource.id, bob, 1)],
  })
  t.deepEqual(simulated.json.body, { changes: { added: [{ User: { id: bob.id } }], removed: [] } })
  const shared = await share(ada, resource.id, [userPermission(resource.id, bob, 1)], members)
  t.is(shared.status, 200, shared.text)
  const list = await bob.client.fetch('/resources.json?contain[permission]=1')
  t.deepEqual(
    list.json.body.map((r: { id: string }) => r.id),
    [resource.id],
  )
  t.is(list.json.body[0].permission.type, 1)
  const secret = await bob.client.fetch(`/secrets/resource/${resource.id}.json`)
  t.is(JSON.parse(await decryptAs(secret.json.body.data, bob)).password, 'shared-pw')
  const permissions = await ada.client.fetch(
    `/permissions/resource/${resource.id}.json?contain[user]=1&contain[user.profile]=1&contain[group]=1`,
  )
  t.is(permissions.json.body.length, 2)
  for (const permission of permissions.json.body)
    t.deepEqual(await clientValidation('PermissionEntity', permission), {})
  t.is((await bob.client.fetch(`/permissions/resource/${resource.id}.json`)).status, 200)
  const [, , cat] = members
  t.is((await cat.client.fetch(`/permissions/resource/${resource.id}.json`)).status, 404)
})

test('sharing with a group reaches every member; each needs a secret, none may be missing', async (t) => {
  const { api, members, sql } = await setup(t)
  const [ada, bob, cat, dan] = members
  const group = await makeGroup(api, 'Accounting', [bob, cat, dan])
  const resource = await createPassword(ada, 'group-shared', 'shared-pw')
  const permissions = [{ aro: 'Group', aro_foreign_key: group, type: 7 }]
  const simulated = await ada.client.json(`/share/simulate/resource/${resource.id}.json`, 'POST', {
    permissions,
  })
  t.deepEqual(
    simulated.json.body.changes.added.map((a: { User: { id: string } }) => a.User.id).sort(),
    [bob.id, cat.id, dan.id].sort(),
  )
  const partial = await ada.client.json(`/share/resource/${resource.id}.json`, 'PUT', {
    permissions,
    secrets: [{ user_id: bob.id, data: await encryptFor(plaintext, [bob]) }],
  })
  t.is(partial.status, 400)
  t.is(partial.json.header.message, 'Could not validate resource data.')
  t.deepEqual(partial.json.body, {
    secrets: {
      secrets_provided: 'The secrets of all the users having access to the resource are required.',
    },
  })
  t.deepEqual(
    await sql("select count(*)::int as n from permissions where aro = 'Group'"),
    [{ n: 0 }],
    'nothing of the refused share was written',
  )
  t.is((await share(ada, resource.id, permissions, members)).status, 200)
  for (const member of [bob, cat, dan]) {
    const secret = await member.client.fetch(`/secrets/resource/${resource.id}.json`)
    t.is(JSON.parse(await decryptAs(secret.json.body.data, member)).password, 'shared-pw')
  }
})

test('removing a permission takes the secret and the favorite of whoever loses access', async (t) => {
  const { members, sql } = await setup(t)
  const [ada, bob] = members
  const resource = await createPassword(ada, 'temp')
  await share(ada, resource.id, [userPermission(resource.id, bob, 1)], members)
  t.is(
    (await bob.client.fetch(`/favorites/resource/${resource.id}.json`, { method: 'POST' })).status,
    200,
  )
  const [bobPermission] = await sql('select id from permissions where aro_foreign_key = $1', [
    bob.id,
  ])
  const simulated = await ada.client.json(`/share/simulate/resource/${resource.id}.json`, 'POST', {
    permissions: [{ id: bobPermission.id, delete: true }],
  })
  t.deepEqual(simulated.json.body.changes, { added: [], removed: [{ User: { id: bob.id } }] })
  const removed = await ada.client.json(`/share/resource/${resource.id}.json`, 'PUT', {
    permissions: [{ id: bobPermission.id, delete: true }],
    secrets: [],
  })
  t.is(removed.status, 200)
  t.is((await bob.client.fetch(`/secrets/resource/${resource.id}.json`)).status, 404)
  t.deepEqual(await sql('select 1 from favorites where user_id = $1', [bob.id]), [])
})

test('refusals: only owners share; the rows are checked one by one; an owner always remains', async (t) => {
  const { members, sql } = await setup(t)
  const [ada, bob, cat] = members
  const resource = await createPassword(ada, 'guarded')
  await share(ada, resource.id, [userPermission(resource.id, bob, 7)], members)
  const byUpdater = await bob.client.json(`/share/resource/${resource.id}.json`, 'PUT', {
    permissions: [userPermission(resource.id, cat, 1)],
  })
  t.is(byUpdater.status, 403)
  t.is(byUpdater.json.header.message, 'You are not authorized to share this resource.')
  t.is(
    (await cat.client.json(`/share/resource/${resource.id}.json`, 'PUT', { permissions: [] }))
      .status,
    404,
  )
  const [adaPermission] = await sql('select id from permissions where aro_foreign_key = $1', [
    ada.id,
  ])
  const put = (permissions: unknown[]) =>
    ada.client.json(`/share/resource/${resource.id}.json`, 'PUT', { permissions, secrets: [] })
  const noOwner = await put([{ id: adaPermission.id, type: 1 }])
  t.deepEqual(noOwner.json.body, {
    permissions: { at_least_one_owner: 'At least one owner permission must be provided.' },
  })
  const duplicate = await put([userPermission(resource.id, bob, 1)])
  t.truthy(duplicate.json.body.permissions[0].aco_foreign_key.permission_unique)
  const unknown = await put([{ id: '00000000-0000-4000-8000-000000000000', type: 1 }])
  t.truthy(unknown.json.body.permissions[0].id.exists)
  const ghost = await put([
    { aro: 'User', aro_foreign_key: '00000000-0000-4000-8000-000000000000', type: 1 },
  ])
  t.truthy(ghost.json.body.permissions[0].aro_foreign_key.aro_exists)
  const badRows = await put([{ aro: 'Robot', aro_foreign_key: 'x', type: 3 }, 'nope'])
  t.truthy(badRows.json.body.permissions[0].aro.inList)
  t.truthy(badRows.json.body.permissions[0].aro_foreign_key.uuid)
  t.truthy(badRows.json.body.permissions[0].type.inList)
  t.truthy(badRows.json.body.permissions[1])
  const strangerSecret = await ada.client.json(`/share/resource/${resource.id}.json`, 'PUT', {
    permissions: [],
    secrets: [{ user_id: cat.id, data: await encryptFor(plaintext, [cat]) }],
  })
  t.truthy(strangerSecret.json.body.secrets[0].resource_id.has_resource_access)
  const twice = await ada.client.json(`/share/resource/${resource.id}.json`, 'PUT', {
    permissions: [userPermission(resource.id, cat, 1)],
    secrets: [
      { user_id: cat.id, data: await encryptFor(plaintext, [cat]) },
      { user_id: cat.id, data: await encryptFor(plaintext, [cat]) },
    ],
  })
  t.truthy(twice.json.body.secrets[1].user_id.secret_unique)
  for (const body of [
    '{"permissions": "x"}',
    '[]',
    '{"permissions": [{"id": 5}]}',
    '{"secrets": [1]}',
  ])
    t.is(
      (
        await ada.client.fetch(`/share/resource/${resource.id}.json`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body,
        })
      ).status,
      400,
      body,
    )
  t.deepEqual(
    (await sql('select aro_foreign_key, type from permissions order by type desc')).map(
      (r) => r.type,
    ),
    [15, 7],
    'no refused share changed anything',
  )
})

test('two owners sharing one resource at once: both apply in turn, nothing is lost', async (t) => {
  const { members, sql } = await setup(t, ['ada', 'bob', 'cat', 'dan', 'eve'])
  const [ada, bob, cat, dan, eve] = members
  const resource = await createPassword(ada, 'contended')
  await share(ada, resource.id, [userPermission(resource.id, bob, 15)], members)
  const secret = async (user: Member, by: Member) => ({
    user_id: user.id,
    data: await encryptFor(plaintext, [user], by),
  })
  const [adaPermission] = await sql('select id from permissions where aro_foreign_key = $1', [
    ada.id,
  ])
  const [bobPermission] = await sql('select id from permissions where aro_foreign_key = $1', [
    bob.id,
  ])
  const results = await Promise.all([
    ada.client.json(`/share/resource/${resource.id}.json`, 'PUT', {
      permissions: [userPermission(resource.id, cat, 1), { id: bobPermission.id, delete: true }],
      secrets: [await secret(cat, ada)],
    }),
    bob.client.json(`/share/resource/${resource.id}.json`, 'PUT', {
      permissions: [userPermission(resource.id, dan, 1), { id: adaPermission.id, delete: true }],
      secrets: [await secret(dan, bob)],
    }),
    ada.client.json(`/share/resource/${resource.id}.json`, 'PUT', {
      permissions: [userPermission(resource.id, eve, 7)],
      secrets: [await secret(eve, ada)],
    }),
  ])
  const statuses = results.map((r) => r.status)
  t.true(
    statuses.every((s) => [200, 403, 404].includes(s)),
    statuses.join(','),
  )
  const owners = await sql(
    'select aro_foreign_key from permissions where aco_foreign_key = $1 and type = 15',
    [resource.id],
  )
  t.true(owners.length >= 1, 'an owner remains')
  // Removing each other: the one who went first took the other's right to share away.
  t.is(statuses.slice(0, 2).filter((s) => s === 200).length, 1)
})

test('search-aros: active users by name or username and groups with their member count, sorted', async (t) => {
  const { api, members } = await setup(t)
  const [ada, bob] = members
  await makeGroup(api, 'Bobsleigh', [ada, bob])
  const found = await ada.client.fetch(
    '/share/search-aros.json?filter[search]=bo&contain[profile]=1&contain[user_count]=1',
  )
  t.is(found.status, 200)
  t.deepEqual(
    found.json.body.map((aro: { username?: string; name?: string }) => aro.username ?? aro.name),
    ['bob@keyward.test', 'Bobsleigh'],
  )
  const group = found.json.body.find((aro: { name?: string }) => aro.name)
  t.is(group.user_count, 2)
  for (const aro of found.json.body)
    t.deepEqual(await clientValidation('UserAndGroupSearchResultEntity', aro), {})
  const user = found.json.body[0]
  t.truthy(user.profile)
  t.truthy(user.gpgkey, 'no accepted contain given: all on, as passbolt')
  const lean = await ada.client.fetch('/share/search-aros.json?filter[search]=bob&contain[role]=1')
  t.truthy(lean.json.body[0].role)
  t.false('gpgkey' in lean.json.body[0])
  const injected = await ada.client.fetch(
    `/share/search-aros.json?filter[search]=${encodeURIComponent("%' or 1=1 --")}`,
  )
  t.deepEqual(injected.json.body, [])
  t.is(
    (await ada.client.fetch(`/share/search-aros.json?filter[search]=${'x'.repeat(65)}`)).status,
    400,
  )
})
