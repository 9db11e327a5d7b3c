// Changes members make every day, sent as the official clients send them (each reads what it
// needs first), for tests that run a random mix of them: access granted or taken away, group
// members added and removed. Each answers the status of its last request (0: nothing to do).
import { encryptFor, type Member } from './vault.ts'

/** A small seeded generator (mulberry32), so a failing mix can be replayed from its seed. */
export const seededRandom = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let value = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value
  return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296
}

/** A chooser of names by weight, drawing on `next` (a seeded generator). */
export const weightedChoice =
  <N extends string>(next: () => number, weights: readonly (readonly [N, number])[]) =>
  (): N => {
    const total = weights.reduce((sum, [, weight]) => sum + weight, 0)
    let roll = next() * total
    for (const [name, weight] of weights) {
      roll -= weight
      if (roll < 0) return name
    }
    return weights[weights.length - 1][0]
  }

/** Reads rows from the test's database. */
export type ReadRows = (text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>

/** One secret for a user, as a share or a group change sends it. */
export type SecretFor = (userId: string) => { user_id: string; data: string }

export interface TestGroup {
  id: string
  manager: Member
}

/**
 * One secret message per member, encrypted by `by`: the server checks each message's recipient,
 * not its text, so one a member will do for every password.
 */
export const secretsFor = async (people: readonly Member[], by: Member): Promise<SecretFor> => {
  const message = new Map<string, string>()
  for (const member of people)
    message.set(member.id, await encryptFor('{"password":"p"}', [member], by))
  return (userId) => ({ user_id: userId, data: message.get(userId)! })
}

/** Groups created by the administrator `admin`, each of a manager and one member. */
export const createGroups = async (
  admin: Member,
  specs: readonly (readonly [name: string, manager: Member, member: Member])[],
): Promise<TestGroup[]> => {
  const groups: TestGroup[] = []
  for (const [name, manager, member] of specs) {
    const created = await admin.client.json('/groups.json', 'POST', {
      name,
      groups_users: [
        { user_id: manager.id, is_admin: true },
        { user_id: member.id, is_admin: false },
      ],
    })
    if (created.status !== 200) throw new Error(created.text)
    groups.push({ id: created.json.body.id, manager })
  }
  return groups
}

/**
 * `owner` gives `target` access to the resource (at the level `type` answers), or takes it away
 * when `target` has a permission: the simulation first, then the share with the secrets of
 * whoever gains access.
 */
export const toggleAccess = async (
  read: ReadRows,
  owner: Member,
  resourceId: string,
  target: { aro: 'User' | 'Group'; id: string },
  type: () => number,
  secretFor: SecretFor,
) => {
  const current = await read(
    'select id, aro_foreign_key from permissions where aco_foreign_key = $1',
    [resourceId],
  )
  const existing = current.find((row) => row.aro_foreign_key === target.id)
  const permissions = existing
    ? [{ id: existing.id, delete: true }]
    : [{ aro: target.aro, aro_foreign_key: target.id, aco: 'Resource', type: type() }]
  const simulated = await owner.client.json(`/share/simulate/resource/${resourceId}.json`, 'POST', {
    permissions,
  })
  if (simulated.status !== 200) return simulated.status
  const added: string[] = simulated.json.body.changes.added.map(
    (row: { User: { id: string } }) => row.User.id,
  )
  return (
    await owner.client.json(`/share/resource/${resourceId}.json`, 'PUT', {
      permissions,
      secrets: added.map(secretFor),
    })
  ).status
}

/** The group's manager adds `user`: the dry run names the secrets to send. */
export const addGroupMember = async (group: TestGroup, user: Member, secretFor: SecretFor) => {
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

/** The group's manager removes one of the other members, the one `pick` chooses. */
export const removeGroupMember = async (
  read: ReadRows,
  group: TestGroup,
  pick: <T>(items: readonly T[]) => T,
) => {
  const members = await read('select id from groups_users where group_id = $1 and user_id <> $2', [
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
