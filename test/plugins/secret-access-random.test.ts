// Many sharing changes at once, in a random mix: shares, group memberships added and removed,
// password updates and deletions, sent concurrently as the clients would send them (each reads
// what it needs first, so some find the state changed and are refused). Whatever the
// interleaving, none fails with a 5xx, and at the end every secret belongs to a user who can
// read its resource and every such user has exactly one.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import {
  addGroupMember,
  createGroups,
  removeGroupMember,
  secretsFor,
  seededRandom,
  toggleAccess,
  weightedChoice,
} from '../helpers/everyday-changes.ts'
import { secretInvariantViolations } from '../helpers/invariants.ts'
import { createPassword, sqlOf, team } from '../helpers/vault.ts'

// Bounded in time, so the suite can afford it on every run: waves go on for RACE_SECONDS (at
// least two waves, at most twelve). A longer hunt: KEYWARD_RACE_SECONDS=600, and
// KEYWARD_RACE_SEED replays a mix. An earlier interleaving (one member leaving a group while
// joining another that reaches the same password) is fixed, with its held-row race test in
// secret-access-groups.test.ts.
const RACE_SECONDS = Number(process.env.KEYWARD_RACE_SECONDS ?? 20)

test('concurrent shares, membership changes, updates and deletions keep one secret per reader', async (t) => {
  // The waves are bounded; setting the team up is what a loaded machine makes slow.
  t.timeout(600_000)
  const seed = Number(process.env.KEYWARD_RACE_SEED ?? Date.now() % 1_000_000)
  t.log(`seed ${seed} (KEYWARD_RACE_SEED replays it)`)
  const next = seededRandom(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]

  const api = await startTestApi(t)
  const sql = sqlOf(api)
  const people = await team(api, ['ada', 'bob', 'carol', 'dan', 'eve'], 'eve')
  const [ada, bob, carol, dan, eve] = people
  const secretFor = await secretsFor(people, ada)
  const byId = new Map(people.map((member) => [member.id, member]))

  const groups = await createGroups(eve, [
    ['One', ada, bob],
    ['Two', bob, carol],
  ])
  const resources: string[] = []
  for (const name of ['r1', 'r2', 'r3', 'r4']) resources.push((await createPassword(ada, name)).id)

  /** ada grants or takes away access to one of her passwords. */
  const share = () =>
    toggleAccess(
      sql,
      ada,
      pick(resources),
      pick([
        ...[bob, carol, dan].map((m) => ({ aro: 'User' as const, id: m.id })),
        ...groups.map((g) => ({ aro: 'Group' as const, id: g.id })),
      ]),
      () => pick([1, 7]),
      secretFor,
    )

  /** A manager adds someone to their group. */
  const addMember = () => {
    const group = pick(groups)
    return addGroupMember(
      group,
      pick([ada, bob, carol, dan].filter((m) => m.id !== group.manager.id)),
      secretFor,
    )
  }

  /** A manager removes one of the other members. */
  const removeMember = () => removeGroupMember(sql, pick(groups), pick)

  /** ada changes a password: one secret per reader, as the directory lists them. */
  const update = async () => {
    const resourceId = pick(resources)
    const readers = await ada.client.fetch(`/users.json?filter[has-access]=${resourceId}`)
    if (readers.status !== 200) return readers.status
    return (
      await ada.client.json(`/resources/${resourceId}.json`, 'PUT', {
        name: 'changed',
        secrets: readers.json.body
          .map((user: { id: string }) => user.id)
          .filter((id: string) => byId.has(id))
          .map(secretFor),
      })
    ).status
  }

  const remove = async () =>
    (await ada.client.fetch(`/resources/${pick(resources)}.json`, { method: 'DELETE' })).status

  const operations = { share, addMember, removeMember, update, remove }
  const choose = weightedChoice<keyof typeof operations>(next, [
    ['share', 4],
    ['addMember', 3],
    ['removeMember', 3],
    ['update', 4],
    ['remove', 0.4],
  ])
  const outcomes: string[] = []
  const deadline = Date.now() + RACE_SECONDS * 1000
  for (let wave = 0; wave < 12 && (wave < 2 || Date.now() < deadline); wave++) {
    const names = Array.from({ length: 6 }, choose)
    const statuses = await Promise.all(names.map((name) => operations[name]()))
    names.forEach((name, i) => {
      outcomes.push(`${name}:${statuses[i]}`)
    })
    t.deepEqual(await secretInvariantViolations(api), [], `after wave ${wave}: ${names.join()}`)
  }
  t.log(outcomes.join(' '))
  t.false(
    outcomes.some((outcome) => /:5\d\d$/.test(outcome)),
    'no request failed with a 5xx',
  )
  // The mix did change things: some of each kind of change went through.
  t.true(outcomes.filter((outcome) => outcome.endsWith(':200')).length >= outcomes.length / 4)
  t.deepEqual(await secretInvariantViolations(api), [])
})
