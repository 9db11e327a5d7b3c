// Two groups that reach one password and share a member: leaving one group while joining the
// other, at the same moment, never leaves the member reading the password without a secret.
// Each update reads what the member reaches through all their groups; the two must not both
// read it before either writes.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { holdRows, secretInvariantViolations, waitForLockWaiters } from '../helpers/invariants.ts'
import { createPassword, encryptFor, sqlOf, team } from '../helpers/vault.ts'

test('a member leaving one group while joining another that reaches the same password keeps a secret or is refused', async (t) => {
  const api = await startTestApi(t)
  const [ada, bob, carol, eve] = await team(api, ['ada', 'bob', 'carol', 'eve'], 'eve')
  const sql = sqlOf(api)
  const group = async (name: string, members: string[]) => {
    const created = await eve.client.json('/groups.json', 'POST', {
      name,
      groups_users: [
        { user_id: bob.id, is_admin: true },
        ...members.map((user_id) => ({ user_id, is_admin: false })),
      ],
    })
    if (created.status !== 200) throw new Error(created.text)
    return created.json.body.id as string
  }
  const one = await group('One', [])
  const two = await group('Two', [carol.id])
  const resource = await createPassword(ada, 'vault', 'the-password')
  const shared = await ada.client.json(`/share/resource/${resource.id}.json`, 'PUT', {
    permissions: [one, two].map((id) => ({
      aro: 'Group',
      aro_foreign_key: id,
      aco: 'Resource',
      type: 1,
    })),
    secrets: await Promise.all(
      [bob, carol].map(async (member) => ({
        user_id: member.id,
        data: await encryptFor('{"password":"the-password"}', [member], ada),
      })),
    ),
  })
  t.is(shared.status, 200, shared.text)
  const [{ id: carolInTwo }] = await sql(
    'select id from groups_users where group_id = $1 and user_id = $2',
    [two, carol.id],
  )
  // Carol reads the password through Two, so joining One needs no secret of it.
  const dryRun = await bob.client.json(`/groups/${one}/dry-run.json`, 'PUT', {
    groups_users: [{ user_id: carol.id, is_admin: false }],
  })
  t.deepEqual(dryRun.json.body['dry-run'].SecretsNeeded, [])

  // Carol's secret row is held: leaving Two stops where it deletes what she no longer reaches.
  const held = await holdRows(
    api,
    'select 1 from secrets where resource_id = $1 and user_id = $2 for update',
    [resource.id, carol.id],
  )
  const leaving = bob.client.json(`/groups/${two}.json`, 'PUT', {
    groups_users: [{ id: carolInTwo, delete: true }],
  })
  t.true(await waitForLockWaiters(api, 1), 'leaving Two waits on the held row')
  let joined = false
  const joining = bob.client
    .json(`/groups/${one}.json`, 'PUT', {
      groups_users: [{ user_id: carol.id, is_admin: false }],
      secrets: [],
    })
    .finally(() => {
      joined = true
    })
  // Joining either waits for the departure (it holds carol) or, unprotected, commits at once.
  const deadline = Date.now() + 3_000
  while (!joined && Date.now() < deadline) if (await waitForLockWaiters(api, 2, 100)) break
  await held.release()
  const [left, join] = await Promise.all([leaving, joining])
  t.is(left.status, 200, left.text)
  // Once carol has left Two, joining One must bring her secret of the password: it had none.
  t.is(join.status, 400, join.text)
  t.deepEqual(await secretInvariantViolations(api), [])
})
