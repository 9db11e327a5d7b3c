// Many sharing changes at once, in a random mix: shares, group memberships added and removed,
// password updates and deletions, sent concurrently as the clients would send them (each reads
// what it needs first, so some find the state changed and are refused). Whatever the
// interleaving, none fails with a 5xx, and at the end every secret belongs to a user who can
// read its resource and every such user has exactly one.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { secretInvariantViolations } from '../helpers/invariants.ts'
import { createPassword, encryptFor, type Member, sqlOf, team } from '../helpers/vault.ts'

/** A small seeded generator (mulberry32), so a failing mix can be replayed from its seed. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let value = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value
  return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296
}

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
  const next = random(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]

  const api = await startTestApi(t)
  const sql = sqlOf(api)
  const people = await team(api, ['ada', 'bob', 'carol', 'dan', 'eve'], 'eve')
  const [ada, bob, carol, dan, eve] = people
  // The server checks each message's recipient, not its text: one message per user will do.
  const message = new Map<string, string>()
  for (const member of people)
    message.set(member.id, await encryptFor('{"password":"p"}', [member], ada))
  const secretFor = (userId: string) => ({ user_id: userId, data: message.get(userId)! })
  const byId = new Map(people.map((member) => [member.id, member]))

  const groups: { id: string; manager: Member }[] = []
  for (const [name, manager, member] of [
    ['One', ada, bob],
    ['Two', bob, carol],
  ] as const) {
    const created = await eve.client.json('/groups.json', 'POST', {
      name,
      groups_users: [
        { user_id: manager.id, is_admin: true },
        { user_id: member.id, is_admin: false },
      ],
    })
    if (created.status !== 200) throw new Error(created.text)
    groups.push({ id: created.json.body.id, manager })
  }
  const resources: string[] = []
  for (const name of ['r1', 'r2', 'r3', 'r4']) resources.push((await createPassword(ada, name)).id)

  /** Share: simulate, then send the secrets of whoever gains access. */
  const share = async () => {
    const resourceId = pick(resources)
    const current = await sql(
      'select id, aro, aro_foreign_key, type from permissions where aco_foreign_key = $1',
      [resourceId],
    )
    const candidates = [
      ...[bob, carol, dan].map((m) => ({ aro: 'User', id: m.id })),
      ...groups.map((g) => ({ aro: 'Group', id: g.id })),
    ]
    const target = pick(candidates)
    const existing = current.find((row) => row.aro_foreign_key === target.id)
    const permissions = existing
      ? [{ id: existing.id, delete: true }]
      : [{ aro: target.aro, aro_foreign_key: target.id, aco: 'Resource', type: pick([1, 7]) }]
    const simulated = await ada.client.json(`/share/simulate/resource/${resourceId}.json`, 'POST', {
      permissions,
    })
    if (simulated.status !== 200) return simulated.status
    const added: string[] = simulated.json.body.changes.added.map(
      (row: { User: { id: string } }) => row.User.id,
    )
    return (
      await ada.client.json(`/share/resource/${resourceId}.json`, 'PUT', {
        permissions,
        secrets: added.map(secretFor),
      })
    ).status
  }

  /** A manager adds someone to their group: the dry run names the secrets to send. */
  const addMember = async () => {
    const group = pick(groups)
    const user = pick([ada, bob, carol, dan].filter((m) => m.id !== group.manager.id))
    const groups_users = [{ user_id: user.id, is_admin: false }]
    const client = group.manager.client
    const dryRun = await client.json(`/groups/${group.id}/dry-run.json`, 'PUT', { groups_users })
    if (dryRun.status !== 200) return dryRun.status
    const needed: { Secret: { resource_id: string; user_id: string } }[] =
      dryRun.json.body['dry-run'].SecretsNeeded
    return (
      await client.json(`/groups/${group.id}.json`, 'PUT', {
        groups_users,
        secrets: needed.map(({ Secret }) => ({
          resource_id: Secret.resource_id,
          ...secretFor(Secret.user_id),
        })),
      })
    ).status
  }

  /** A manager removes one of the other members. */
  const removeMember = async () => {
    const group = pick(groups)
    const members = await sql('select id from groups_users where group_id = $1 and user_id <> $2', [
      group.id,
      group.manager.id,
    ])
    if (members.length === 0) return 0
    return (
      await group.manager.client.json(`/groups/${group.id}.json`, 'PUT', {
        groups_users: [{ id: pick(members).id, delete: true }],
      })
    ).status
  }

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
  const weights: [keyof typeof operations, number][] = [
    ['share', 4],
    ['addMember', 3],
    ['removeMember', 3],
    ['update', 4],
    ['remove', 0.4],
  ]
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0)
  const choose = () => {
    let roll = next() * total
    for (const [name, weight] of weights) {
      roll -= weight
      if (roll < 0) return name
    }
    return 'update'
  }
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
