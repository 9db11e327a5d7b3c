// The resources' part in deleting a user or a group, called the way the deleting plugin calls
// it: what blocks (shared resources the subject alone owns, counting the groups a user alone
// manages) and what goes (resources nobody else reaches, the subject's permissions, the
// secrets of whoever no longer reaches a resource).
import test, { type ExecutionContext } from 'ava'
import { runInTransaction } from '../../api/db/transaction.ts'
import { type DeletionSubject, userDeletion } from '../../plugins/users/index.ts'
import { startTestApi, type TestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import {
  createPassword,
  makeGroup,
  secretInvariantViolations,
  sqlOf,
  team,
} from '../helpers/vault.ts'

const hooks = (api: TestApi) =>
  userDeletion.of(api.app.plugins.filter((plugin) => plugin.name === 'resources'))[0]

const blockers = (api: TestApi, subject: DeletionSubject) =>
  runInTransaction(api.app.orm.em.fork(), (em) => hooks(api).blockers!(em, subject, api.app))

const cleanup = (api: TestApi, subject: DeletionSubject) =>
  runInTransaction(api.app.orm.em.fork(), (em) => hooks(api).cleanup!(em, subject, api.app))

const setup = async (t: ExecutionContext) => {
  const api = await startTestApi(t)
  const [ada, bob, cat] = await team(api, ['ada', 'bob', 'cat'])
  const sql = sqlOf(api)
  /** Adds a permission and the secret that goes with it, as a share would. */
  const grant = async (resourceId: string, aro: 'User' | 'Group', aroId: string, type: number) => {
    await sql(
      `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
       values (gen_random_uuid(), 'Resource', $1, $2, $3, $4)`,
      [resourceId, aro, aroId, type],
    )
    await sql(
      `insert into secrets (id, resource_id, user_id, data)
       select gen_random_uuid(), $1, u.id, 'x' from users u
       where (u.id = $2 or u.id in (select user_id from groups_users where group_id = $2))
         and not exists (select 1 from secrets s where s.resource_id = $1 and s.user_id = u.id)`,
      [resourceId, aroId],
    )
  }
  return { api, ada, bob, cat, sql, grant }
}

test('a user alone owning a shared resource is blocked, with the resource and its permissions listed', async (t) => {
  const { api, ada, bob, grant } = await setup(t)
  const shared = await createPassword(ada, 'shared')
  await createPassword(ada, 'private')
  await grant(shared.id, 'User', bob.id, 7)
  const found = await blockers(api, { kind: 'User', id: ada.id })
  const [listed] = (found.resources as { sole_owner: Record<string, unknown>[] }).sole_owner
  t.is(found.resources.sole_owner.length, 1)
  t.is(listed.name, 'shared')
  t.is(
    (listed.permissions as { user?: { profile: unknown } }[]).filter((p) => p.user?.profile).length,
    2,
  )
  t.deepEqual(await clientValidation('ResourceEntity', listed), {})
  t.deepEqual(await blockers(api, { kind: 'User', id: bob.id }), {}, 'bob owns nothing')
})

test('co-owned and private resources do not block; cleanup keeps the first for the others and deletes the second', async (t) => {
  const { api, ada, bob, sql, grant } = await setup(t)
  const coOwned = await createPassword(ada, 'co-owned')
  await createPassword(ada, 'mine')
  await grant(coOwned.id, 'User', bob.id, 15)
  t.deepEqual(await blockers(api, { kind: 'User', id: ada.id }), {})
  await cleanup(api, { kind: 'User', id: ada.id })
  t.deepEqual(await sql('select name, deleted from resources order by name'), [
    { name: 'co-owned', deleted: false },
    { name: 'mine', deleted: true },
  ])
  t.deepEqual(await sql('select 1 from permissions where aro_foreign_key = $1', [ada.id]), [])
  t.deepEqual(await sql('select 1 from secrets where user_id = $1', [ada.id]), [])
  t.deepEqual(await sql('select user_id from secrets where resource_id = $1', [coOwned.id]), [
    { user_id: bob.id },
  ])
})

test('owning through a group one alone manages counts; a group with other members is the groups’ question', async (t) => {
  const { api, ada, bob, cat, grant, sql } = await setup(t)
  const alone = await makeGroup(api, 'Alone', [ada])
  const crowded = await makeGroup(api, 'Crowded', [ada, cat])
  const viaAlone = await createPassword(ada, 'via-alone')
  const viaCrowded = await createPassword(ada, 'via-crowded')
  for (const [resource, group] of [
    [viaAlone, alone],
    [viaCrowded, crowded],
  ] as const) {
    await sql('delete from permissions where aco_foreign_key = $1', [resource.id])
    await grant(resource.id, 'Group', group, 15)
    await grant(resource.id, 'User', bob.id, 1)
  }
  const found = await blockers(api, { kind: 'User', id: ada.id })
  t.deepEqual(
    (found.resources.sole_owner as { name: string }[]).map((r) => r.name),
    ['via-alone'],
  )
  const group = await blockers(api, { kind: 'Group', id: crowded })
  t.deepEqual(
    (group.resources.sole_owner as { name: string }[]).map((r) => r.name),
    ['via-crowded'],
    'the group alone owns a resource bob reads',
  )
})

test('a deleted group takes the secrets its members only had through it', async (t) => {
  const { api, ada, bob, cat, grant, sql } = await setup(t)
  const group = await makeGroup(api, 'Readers', [bob, cat])
  const resource = await createPassword(ada, 'for-readers')
  await grant(resource.id, 'Group', group, 1)
  await grant(resource.id, 'User', cat.id, 1)
  t.deepEqual(await blockers(api, { kind: 'Group', id: group }), {})
  await sql('update groups set deleted = true where id = $1', [group])
  await cleanup(api, { kind: 'Group', id: group })
  t.deepEqual(
    (
      await sql('select user_id from secrets where resource_id = $1 order by user_id', [
        resource.id,
      ])
    )
      .map((row) => row.user_id)
      .sort(),
    [ada.id, cat.id].sort(),
    'bob only had it through the group; cat has her own permission',
  )
  t.deepEqual(await secretInvariantViolations(api), [])
})
