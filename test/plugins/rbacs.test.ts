// Custom roles and UI rights over real HTTP: administrators add, rename and delete roles within
// passbolt's limits; a new role starts with the rights of `user`; a denied UI action hides the
// part in the clients and closes its routes on the server.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { createPassword, team } from '../helpers/vault.ts'

const DENIED = 'You are not authorized to access that location.'

const setup = async (t: import('ava').ExecutionContext) => {
  const api = await startTestApi(t)
  const [admin, ada, bob] = await team(api, ['admin', 'ada', 'bob'], 'admin')
  return { api, admin, ada, bob }
}

test('administrators add, rename and delete custom roles within the limits', async (t) => {
  const { admin, ada } = await setup(t)
  const names = async (query = '') =>
    (await admin.client.fetch(`/roles.json${query}`)).json.body.map((r: { name: string }) => r.name)
  t.deepEqual(await names(), ['admin', 'guest', 'user'])

  const add = (name: unknown) => admin.client.json('/roles.json', 'POST', { name })
  const auditor = await add('  Auditor ')
  t.is(auditor.status, 200, auditor.text)
  t.like(auditor.json.body, { name: 'Auditor', created_by: admin.id })
  t.deepEqual(await clientValidation('RoleEntity', auditor.json.body), {})
  for (const [name, rule] of [
    ['admin', 'reservedRole'],
    ['', '_empty'],
    ['   ', '_empty'],
    ['x'.repeat(51), 'maxLength'],
    [42, 'type'],
    ['AUDITOR', 'unique'],
  ] as const) {
    const refused = await add(name)
    t.is(refused.status, 400, String(name))
    t.truthy(refused.json.body.name?.[rule], `${String(name)}: ${refused.text}`)
  }
  t.is((await add('Support')).status, 200)
  const over = await add('Third')
  t.is(over.status, 400)
  t.is(
    over.json.body.name.maximumNumberOfRolesAllowed,
    'Only maximum of 5 active roles are allowed.',
  )
  t.deepEqual(await names(), ['Auditor', 'Support', 'admin', 'guest', 'user'])

  const nonAdmin = await ada.client.json('/roles.json', 'POST', { name: 'Mine' })
  t.is(nonAdmin.status, 403)
  const id = auditor.json.body.id
  const renamed = await admin.client.json(`/roles/${id}.json`, 'PUT', { name: 'Auditors' })
  t.is(renamed.status, 200, renamed.text)
  t.is(renamed.json.body.name, 'Auditors')
  t.is((await admin.client.json(`/roles/${id}.json`, 'PUT', { name: 'support' })).status, 400)
  const userRole = (await admin.client.fetch('/roles.json')).json.body.find(
    (r: { name: string }) => r.name === 'user',
  )
  const builtin = await admin.client.json(`/roles/${userRole.id}.json`, 'PUT', { name: 'People' })
  t.is(builtin.status, 400)
  t.is(
    (await admin.client.json('/roles/nope.json', 'PUT', { name: 'X' })).json.header.message,
    'The role identifier is not valid.',
  )
  t.is(
    (await admin.client.json(`/roles/${crypto.randomUUID()}.json`, 'PUT', { name: 'X' })).status,
    404,
  )
  t.is((await ada.client.json(`/roles/${id}.json`, 'PUT', { name: 'Mine' })).status, 403)
  t.is((await ada.client.fetch(`/roles/${id}.json`, { method: 'DELETE' })).status, 403)

  // Deleting: never a built-in role, never one in use.
  t.is((await admin.client.fetch(`/roles/${userRole.id}.json`, { method: 'DELETE' })).status, 400)
  t.is((await admin.client.json(`/users/${ada.id}.json`, 'PUT', { role_id: id })).status, 200)
  const counted = (await admin.client.fetch('/roles.json?contain[user_count]=1')).json.body
  t.is(counted.find((r: { id: string }) => r.id === id).user_count, 1)
  const inUse = await admin.client.fetch(`/roles/${id}.json`, { method: 'DELETE' })
  t.is(inUse.status, 400)
  t.is(
    inUse.json.body.id.hasNoActiveUserAssociatedRule,
    'The role cannot be deleted as it is associated with another user.',
  )
  t.is(
    (await admin.client.json(`/users/${ada.id}.json`, 'PUT', { role_id: userRole.id })).status,
    200,
  )
  const deleted = await admin.client.fetch(`/roles/${id}.json`, { method: 'DELETE' })
  t.is(deleted.status, 200, deleted.text)
  t.is((await admin.client.fetch(`/roles/${id}.json`, { method: 'DELETE' })).status, 404)
  t.deepEqual(await names(), ['Support', 'admin', 'guest', 'user'])
  t.deepEqual(await names('?filter[is-deleted]=1'), ['Auditors'])
  t.deepEqual(
    (await ada.client.fetch('/roles.json?filter[is-deleted]=1')).json.body.map(
      (r: { name: string }) => r.name,
    ),
    ['Support', 'admin', 'guest', 'user'],
    'the options are for administrators',
  )
  // A deleted role cannot be given.
  t.is((await admin.client.json(`/users/${ada.id}.json`, 'PUT', { role_id: id })).status, 400)
  // Its name is free again.
  t.is((await add('Auditors')).status, 200)
})

test('a new role starts with the rights of user; a denied share closes the share routes', async (t) => {
  const { admin, ada, bob } = await setup(t)
  const settings = await bob.client.fetch('/settings.json')
  t.deepEqual(settings.json.body.passbolt.plugins.rbacs, { version: '1.0.0' })

  const actions = await admin.client.fetch('/rbacs/uiactions.json')
  t.is(actions.status, 200)
  t.is(actions.json.body.length, 20)
  for (const action of actions.json.body)
    t.deepEqual(await clientValidation('UiActionEntity', action), {})
  t.deepEqual(
    actions.json.body.find((a: { name: string }) => a.name === 'Users.viewWorkspace')
      .allowed_control_functions,
    ['Allow', 'Deny', 'AllowIfGroupManagerInOneGroup'],
  )
  t.is((await bob.client.fetch('/rbacs/uiactions.json')).status, 403)
  t.is((await bob.client.fetch('/rbacs.json')).status, 403)

  const role = (await admin.client.json('/roles.json', 'POST', { name: 'Restricted' })).json.body
  const all = (await admin.client.fetch('/rbacs.json?contain[ui_action]=1')).json.body
  const ofRole = all.filter((r: { role_id: string }) => r.role_id === role.id)
  t.is(ofRole.length, 20, 'every UI action, as user has them')
  t.true(ofRole.every((r: { control_function: string }) => r.control_function === 'Allow'))
  for (const rbac of all) t.deepEqual(await clientValidation('RbacEntity', rbac), {})

  t.is((await admin.client.json(`/users/${bob.id}.json`, 'PUT', { role_id: role.id })).status, 200)
  const mine = await bob.client.fetch('/rbacs/me.json?contain[ui_action]=1')
  t.is(mine.status, 200)
  t.is(mine.headers.get('cache-control'), 'no-store')
  t.deepEqual(
    mine.json.body.map((r: { id: string }) => r.id).sort(),
    ofRole.map((r: { id: string }) => r.id).sort(),
  )
  t.deepEqual(
    (await admin.client.fetch('/rbacs/me.json')).json.body,
    [],
    'administrators have none',
  )

  const resource = await createPassword(bob, 'vpn')
  const share = (who: typeof bob) => who.client.fetch('/share/search-aros.json?filter[search]=ada')
  t.is((await share(bob)).status, 200, 'allowed before the change')

  const viewList = ofRole.find(
    (r: { ui_action: { name: string } }) => r.ui_action.name === 'Share.viewList',
  )
  const refused = async (body: unknown, status: number) => {
    const answer = await admin.client.json('/rbacs.json', 'PUT', body)
    t.is(answer.status, status, JSON.stringify(body))
  }
  await refused([], 400)
  await refused([{ id: viewList.id, control_function: 'AllowIfGroupManagerInOneGroup' }], 400)
  await refused([{ id: viewList.id, control_function: 'Maybe' }], 400)
  await refused([{ id: crypto.randomUUID(), control_function: 'Deny' }], 404)
  await refused(
    [
      { id: viewList.id, control_function: 'Deny' },
      { id: crypto.randomUUID(), control_function: 'Deny' },
    ],
    404,
  )
  await refused(
    [
      { id: viewList.id, control_function: 'Deny' },
      { id: viewList.id, control_function: 'Deny' },
    ],
    400,
  )
  await refused([{ id: viewList.id, control_function: 'Deny', role_id: admin.id }], 400)
  t.is(
    (await bob.client.json('/rbacs.json', 'PUT', [{ id: viewList.id, control_function: 'Allow' }]))
      .status,
    403,
  )
  t.is((await share(bob)).status, 200, 'nothing changed by the refusals')

  const denied = await admin.client.json('/rbacs.json?contain[ui_action]=1', 'PUT', [
    { id: viewList.id, control_function: 'Deny' },
  ])
  t.is(denied.status, 200, denied.text)
  t.like(denied.json.body[0], {
    control_function: 'Deny',
    modified_by: admin.id,
    ui_action: { name: 'Share.viewList' },
  })

  for (const answer of [
    await share(bob),
    await bob.client.json(`/share/resource/${resource.id}.json`, 'PUT', { permissions: [] }),
    await bob.client.json(`/share/simulate/resource/${resource.id}.json`, 'POST', {
      permissions: [],
    }),
  ]) {
    t.is(answer.status, 403)
    t.is(answer.json.header.message, DENIED)
  }
  t.is((await share(ada)).status, 200, 'the user role keeps it')
  t.is((await share(admin)).status, 200, 'administrators are never restricted')
  t.is(
    (await bob.client.fetch(`/resources/${resource.id}.json`)).status,
    200,
    'other routes stay open',
  )

  // Denied mobile transfer and comments close theirs.
  const rights = new Map(
    ofRole.map((r: { ui_action: { name: string }; id: string }) => [r.ui_action.name, r.id]),
  )
  t.is(
    (
      await admin.client.json('/rbacs.json', 'PUT', [
        { id: rights.get('Mobile.transfer'), control_function: 'Deny' },
        { id: rights.get('Resources.seeComments'), control_function: 'Deny' },
      ])
    ).status,
    200,
  )
  t.is(
    (
      await bob.client.json('/mobile/transfers.json', 'POST', {
        total_pages: 2,
        hash: 'a'.repeat(128),
      })
    ).status,
    403,
  )
  t.is((await bob.client.fetch(`/comments/resource/${resource.id}.json`)).status, 403)
  t.is(
    (
      await ada.client.json('/mobile/transfers.json', 'POST', {
        total_pages: 2,
        hash: 'a'.repeat(128),
      })
    ).status,
    200,
  )
})

test('administrators create a user with a custom role; never with guest', async (t) => {
  const { admin } = await setup(t)
  const role = (await admin.client.json('/roles.json', 'POST', { name: 'contractor' })).json.body
  const add = (username: string, role_id: string) =>
    admin.client.json('/users.json', 'POST', {
      username,
      profile: { first_name: 'Grace', last_name: 'Hopper' },
      role_id,
    })
  const created = await add('grace@keyward.test', role.id)
  t.is(created.status, 200, created.text)
  t.is(created.json.body.role.name, 'contractor')
  t.is(created.json.body.role_id, role.id)
  const guest = (await admin.client.fetch('/roles.json')).json.body.find(
    (r: { name: string }) => r.name === 'guest',
  )
  const refused = await add('guest@keyward.test', guest.id)
  t.is(refused.status, 400)
  t.truthy(refused.json.body.role_id.isNotGuestRoleIdRule)
})
