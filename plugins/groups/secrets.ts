// The secrets a new member needs: one for every live resource the group can read that the
// user cannot read already, checked against what the client sent.
import type { EntityManager } from '@mikro-orm/postgresql'
import { publicKeyIds } from '../../api/openpgp-packets.ts'
import { selectRows, selectSql } from '../../api/orm.ts'
import type { ErrorTree } from '../../api/validation.ts'
import { checkArmoredSecret, SECRET_RULE_MESSAGES } from '../secrets/index.ts'
import type { SecretEntry } from './changes.ts'
import { messages } from './messages.ts'

/** Resource ids each user would need a secret of on joining the group, by user id. */
export const neededSecrets = async (
  em: EntityManager,
  groupId: string,
  userIds: readonly string[],
): Promise<Map<string, Set<string>>> => {
  const needed = new Map(userIds.map((id) => [id, new Set<string>()]))
  if (userIds.length === 0) return needed
  const rows = await selectSql<{ user_id: string; resource_id: string }>(
    em,
    `select distinct u.id as user_id, p.aco_foreign_key as resource_id
     from users u
     join permissions p on p.aco = 'Resource' and p.aro_foreign_key = :group
     join resource_records r on r.id = p.aco_foreign_key and not r.deleted
     where u.id in (:users)
       and not exists (select 1 from permissions q where q.aco_foreign_key = p.aco_foreign_key
         and (q.aro_foreign_key = u.id or q.aro_foreign_key in (
           select gu.group_id from groups_users gu join groups g on g.id = gu.group_id and not g.deleted
           where gu.user_id = u.id and gu.group_id <> :group)))`,
    { group: groupId, users: [...userIds] },
  )
  for (const row of rows) needed.get(row.user_id)?.add(row.resource_id)
  return needed
}

/** Key ids each user's live key may receive messages on, by user id. */
const recipientsOf = async (em: EntityManager, userIds: string[]) => {
  const keys = userIds.length
    ? await selectRows<{ user_id: string; armored_key: string }>(em, (knex) =>
        knex('gpgkeys')
          .whereIn('user_id', userIds)
          .where('deleted', false)
          .select('user_id', 'armored_key'),
      )
    : []
  const recipients = new Map<string, Set<string>>()
  for (const key of keys) {
    try {
      recipients.set(key.user_id, new Set(publicKeyIds(key.armored_key)))
    } catch {
      recipients.set(key.user_id, new Set())
    }
  }
  return recipients
}

/**
 * Checks that the secrets sent are exactly those the added users need, each a well-formed
 * message for its user; errors nest as passbolt nests them (under the member's change row).
 */
export const checkNewMemberSecrets = async (
  em: EntityManager,
  errors: ErrorTree,
  added: { userId: string; index: number }[],
  needed: Map<string, Set<string>>,
  entries: SecretEntry[],
): Promise<SecretEntry[]> => {
  const rowOf = new Map(added.map((member) => [member.userId, member.index]))
  const recipients = await recipientsOf(
    em,
    added.map((member) => member.userId),
  )
  const provided = new Map<string, Set<string>>()
  const accepted: SecretEntry[] = []
  for (const entry of entries) {
    const row = rowOf.get(entry.userId)
    if (row === undefined) {
      errors.add(['secrets', entry.index, 'user_id'], 'same_user', messages.secretSameUser)
      continue
    }
    const at = ['groups_users', row, 'secrets', entry.index]
    const mine = provided.get(entry.userId) ?? new Set()
    provided.set(entry.userId, mine)
    if (!needed.get(entry.userId)?.has(entry.resourceId)) {
      errors.add([...at, 'resource_id'], 'only_missing', messages.secretOnlyMissing)
      continue
    }
    if (mine.has(entry.resourceId)) {
      errors.add([...at, 'resource_id'], 'secret_unique', messages.secretDuplicate)
      continue
    }
    mine.add(entry.resourceId)
    const rule = checkArmoredSecret(entry.data, recipients.get(entry.userId) ?? new Set())
    if (rule) errors.add([...at, 'data'], rule, SECRET_RULE_MESSAGES[rule])
    else accepted.push(entry)
  }
  for (const member of added) {
    const want = needed.get(member.userId)?.size ?? 0
    const got = provided.get(member.userId)?.size ?? 0
    if (got < want)
      errors.add(['groups_users', member.index, 'secrets'], 'all_missing', messages.secretsMissing)
  }
  return accepted
}

/** Deletes the secrets these users hold of these resources and can no longer read. */
export const deleteLostSecrets = async (
  em: EntityManager,
  userIds: readonly string[],
  resourceIds: readonly string[],
) => {
  if (userIds.length === 0 || resourceIds.length === 0) return
  await selectSql(
    em,
    `delete from secrets s where s.user_id in (:users) and s.resource_id in (:resources)
       and not exists (select 1 from permissions p where p.aco_foreign_key = s.resource_id
         and (p.aro_foreign_key = s.user_id or p.aro_foreign_key in (
           select gu.group_id from groups_users gu join groups g on g.id = gu.group_id and not g.deleted
           where gu.user_id = s.user_id)))
     returning s.id`,
    { users: [...userIds], resources: [...resourceIds] },
  )
}

/** The caller's own secrets of these resources, for the client to re-encrypt (update dry run). */
export const secretsOfCaller = (em: EntityManager, userId: string, resourceIds: string[]) =>
  resourceIds.length
    ? selectRows<{ resource_id: string; data: string }>(em, (knex) =>
        knex('secrets')
          .where('user_id', userId)
          .whereIn('resource_id', resourceIds)
          .select('resource_id', 'data'),
      )
    : Promise.resolve([])
