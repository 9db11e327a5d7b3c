// Who may read a secret, when membership changes race with password changes: a secret is
// answered only to a reader of its resource, and a resource update writes secrets only for the
// users who can read it once every change it overlaps with has committed.
import test, { type ExecutionContext } from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { holdRows, secretInvariantViolations, waitForLockWaiters } from '../helpers/invariants.ts'
import {
  createPassword,
  decryptAs,
  encryptFor,
  type Member,
  sqlOf,
  team,
} from '../helpers/vault.ts'

const secretText = (password: string) => JSON.stringify({ password, description: 'notes' })

/** ada owns a password shared with a group that bob manages and carol belongs to. */
const setup = async (t: ExecutionContext) => {
  const api = await startTestApi(t)
  const [ada, bob, carol, eve] = await team(api, ['ada', 'bob', 'carol', 'eve'], 'eve')
  const sql = sqlOf(api)
  const created = await eve.client.json('/groups.json', 'POST', {
    name: 'Ops',
    groups_users: [
      { user_id: bob.id, is_admin: true },
      { user_id: carol.id, is_admin: false },
    ],
  })
  if (created.status !== 200) throw new Error(created.text)
  const groupId: string = created.json.body.id
  const resource = await createPassword(ada, 'vault', 'old-password')
  const shared = await ada.client.json(`/share/resource/${resource.id}.json`, 'PUT', {
    permissions: [{ aro: 'Group', aro_foreign_key: groupId, aco: 'Resource', type: 1 }],
    secrets: await Promise.all(
      [bob, carol].map(async (member) => ({
        user_id: member.id,
        data: await encryptFor(secretText('old-password'), [member], ada),
      })),
    ),
  })
  if (shared.status !== 200) throw new Error(shared.text)
  const [{ id: carolMembership }] = await sql(
    'select id from groups_users where group_id = $1 and user_id = $2',
    [groupId, carol.id],
  )
  /** ada's update of the password: one secret for each of `readers`. */
  const changePassword = async (readers: Member[], password: string) =>
    ada.client.json(`/resources/${resource.id}.json`, 'PUT', {
      secrets: await Promise.all(
        readers.map(async (member) => ({
          user_id: member.id,
          data: await encryptFor(secretText(password), [member], ada),
        })),
      ),
    })
  return { api, sql, ada, bob, carol, groupId, resource, carolMembership, changePassword }
}

test('a member removed while the password changes cannot read the new password', async (t) => {
  const { api, sql, ada, bob, carol, groupId, resource, carolMembership, changePassword } =
    await setup(t)
  // Secrets encrypted before the race starts, so the requests go out back to back.
  const update = changePassword([ada, bob, carol], 'new-password')
  // ada's own secret row is held: the update stops where it writes the secrets.
  const held = await holdRows(
    api,
    'select 1 from secrets where resource_id = $1 and user_id = $2 for update',
    [resource.id, ada.id],
  )
  const updating = update
  t.true(await waitForLockWaiters(api, 1), 'the update waits on the held row')
  let removalDone = false
  const removal = bob.client
    .json(`/groups/${groupId}.json`, 'PUT', {
      groups_users: [{ id: carolMembership, delete: true }],
    })
    .finally(() => {
      removalDone = true
    })
  // The removal either waits for the update (it holds the group) or, unprotected, commits.
  const deadline = Date.now() + 3_000
  while (!removalDone && Date.now() < deadline) if (await waitForLockWaiters(api, 2, 100)) break
  await held.release()
  const [updated, removed] = await Promise.all([updating, removal])
  t.is(updated.status, 200, updated.text)
  t.is(removed.status, 200, removed.text)

  t.is((await carol.client.fetch(`/resources/${resource.id}.json`)).status, 404)
  const secret = await carol.client.fetch(`/secrets/resource/${resource.id}.json`)
  t.is(secret.status, 404)
  t.deepEqual(
    await sql('select id from secrets where resource_id = $1 and user_id = $2', [
      resource.id,
      carol.id,
    ]),
    [],
  )
  // bob, still a member, reads the new password.
  const bobs = await bob.client.fetch(`/secrets/resource/${resource.id}.json`)
  t.is(JSON.parse(await decryptAs(bobs.json.body.data, bob)).password, 'new-password')
  t.deepEqual(await secretInvariantViolations(api), [])
})

test('a secret row left to someone without access is never answered, and the next update removes it', async (t) => {
  const { api, sql, ada, bob, carol, groupId, resource, carolMembership, changePassword } =
    await setup(t)
  // Carol leaves the group; a stray copy of her old secret is then written back behind the
  // server's back (what the unprotected race used to leave).
  const removed = await bob.client.json(`/groups/${groupId}.json`, 'PUT', {
    groups_users: [{ id: carolMembership, delete: true }],
  })
  t.is(removed.status, 200, removed.text)
  await sql(
    `insert into secrets (id, resource_id, user_id, data, created, modified)
     values (gen_random_uuid(), $1, $2, $3, now(), now())`,
    [resource.id, carol.id, await encryptFor(secretText('old-password'), [carol], ada)],
  )
  const refused = await carol.client.fetch(`/secrets/resource/${resource.id}.json`)
  t.is(refused.status, 404)
  t.is(refused.json.header.message, 'The resource does not exist.')
  t.is(refused.json.body, '')

  const updated = await changePassword([ada, bob], 'newer-password')
  t.is(updated.status, 200, updated.text)
  t.deepEqual(
    await sql('select user_id from secrets where resource_id = $1 order by user_id', [resource.id]),
    [ada.id, bob.id].sort().map((user_id) => ({ user_id })),
  )
  t.deepEqual(await secretInvariantViolations(api), [])
})
