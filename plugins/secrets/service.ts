// Secrets through the query builder: the caller's own, many at once for lists, checked and
// written in bulk (one statement for a thousand), and kept equal to the set of users who can
// read each resource.
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { formatTimestamp } from '../../api/envelope.ts'
import { executeStatement, selectRows, selectSql } from '../../api/orm.ts'
import { isUuid } from '../../api/uuid.ts'
import { ErrorTree } from '../../api/validation.ts'
import { checkArmoredSecret, recipientKeyIds, SECRET_RULE_MESSAGES } from './armored.ts'

interface Row {
  id: string
  user_id: string
  resource_id: string
  data: string
  created: string
  modified: string
  created_by: string | null
  modified_by: string | null
}

const COLUMNS = [
  'id',
  'user_id',
  'resource_id',
  'data',
  'created',
  'modified',
  'created_by',
  'modified_by',
]

export const secretJson = (row: Row) => ({
  id: row.id,
  user_id: row.user_id,
  resource_id: row.resource_id,
  data: row.data,
  created: formatTimestamp(row.created),
  modified: formatTimestamp(row.modified),
  created_by: row.created_by,
  modified_by: row.modified_by,
})

export type SecretJson = ReturnType<typeof secretJson>

/** The user's secret of each of these resources, by resource id. */
export const secretsOfUser = async (em: EntityManager, userId: string, resourceIds: string[]) => {
  const rows = await selectRows<Row>(em, (knex) =>
    knex('secrets').where('user_id', userId).whereIn('resource_id', resourceIds).select(COLUMNS),
  )
  return new Map(rows.map((row) => [row.resource_id, secretJson(row)]))
}

export interface SecretEntry {
  user_id: string
  data: string
}

/**
 * Checks entries a client sent (`[{user_id, data}]`): each an object with a user id and an
 * ASCII-armored message encrypted for that user's key. Returns the error tree by row, or
 * undefined when all are acceptable.
 */
export const checkSecretEntries = async (
  em: EntityManager,
  entries: unknown[],
): Promise<{ errors?: Record<string, unknown>; entries: SecretEntry[] }> => {
  const errors = new ErrorTree()
  const fail = (index: number, field: string, rule: string, message: string) =>
    errors.add([index, field], rule, message)
  const valid: (SecretEntry & { index: number })[] = []
  for (const [index, entry] of entries.entries()) {
    const { user_id: userId, data } = (entry ?? {}) as Record<string, unknown>
    if (typeof entry !== 'object' || entry === null) {
      fail(index, 'data', '_required', 'A message is required.')
      continue
    }
    if (userId === undefined) fail(index, 'user_id', '_required', 'A user identifier is required.')
    else if (!isUuid(userId))
      fail(index, 'user_id', 'uuid', 'The user identifier should be a valid UUID.')
    if (data === undefined) fail(index, 'data', '_required', 'A message is required.')
    else if (typeof data !== 'string' || data === '')
      fail(index, 'data', '_empty', 'The message should not be empty.')
    if (isUuid(userId) && typeof data === 'string' && data !== '')
      valid.push({ user_id: userId.toLowerCase(), data, index })
  }
  const seen = new Set<string>()
  for (const entry of valid) {
    if (seen.has(entry.user_id))
      fail(
        entry.index,
        'user_id',
        'secret_unique',
        'A secret already exists for the given user and resource.',
      )
    seen.add(entry.user_id)
  }
  const keys = await selectRows<{ user_id: string; armored_key: string }>(em, (knex) =>
    knex('gpgkeys')
      .whereIn('user_id', [...new Set(valid.map((entry) => entry.user_id))])
      .andWhere('deleted', false)
      .select('user_id', 'armored_key'),
  )
  const recipients = new Map(keys.map((key) => [key.user_id, recipientKeyIds(key.armored_key)]))
  for (const entry of valid) {
    const rule = checkArmoredSecret(entry.data, recipients.get(entry.user_id) ?? new Set())
    if (rule) fail(entry.index, 'data', rule, SECRET_RULE_MESSAGES[rule])
  }
  return !errors.empty
    ? { errors: errors.tree, entries: [] }
    : { entries: valid.map(({ user_id, data }) => ({ user_id, data })) }
}

/** Creates or replaces the secret of each entry's user for its resource, in one statement. */
export const writeSecretsOfResources = async (
  em: EntityManager,
  entries: readonly { resourceId: string; userId: string; data: string }[],
  actorId: string,
) => {
  if (entries.length === 0) return
  const now = new Date()
  await executeStatement(em, (knex) =>
    knex('secrets')
      .insert(
        entries.map((entry) => ({
          id: randomUUID(),
          resource_id: entry.resourceId,
          user_id: entry.userId,
          data: entry.data,
          created: now,
          modified: now,
          created_by: actorId,
          modified_by: actorId,
        })),
      )
      .onConflict(['resource_id', 'user_id'])
      .merge(['data', 'modified', 'modified_by']),
  )
}

/** Creates or replaces the resource's secret of each entry's user, in one statement. */
export const writeSecrets = (
  em: EntityManager,
  resourceId: string,
  entries: SecretEntry[],
  actorId: string,
) =>
  writeSecretsOfResources(
    em,
    entries.map((entry) => ({ resourceId, userId: entry.user_id, data: entry.data })),
    actorId,
  )

/** Deletes the resource's secrets of everyone but `keep`; returns whose went. */
export const deleteSecretsExcept = async (
  em: EntityManager,
  resourceId: string,
  keep: string[],
): Promise<string[]> => {
  const rows = await selectRows<{ user_id: string }>(em, (knex) =>
    knex('secrets')
      .where('resource_id', resourceId)
      .whereNotIn('user_id', keep)
      .delete()
      .returning('user_id'),
  )
  return rows.map((row) => row.user_id)
}

/** The users of `expected` without a secret of the resource. */
export const usersWithoutSecret = async (
  em: EntityManager,
  resourceId: string,
  expected: string[],
): Promise<string[]> => {
  const rows = await selectRows<{ user_id: string }>(em, (knex) =>
    knex('secrets').where('resource_id', resourceId).select('user_id'),
  )
  const have = new Set(rows.map((row) => row.user_id))
  return expected.filter((user) => !have.has(user))
}

export const deleteSecretsOfResources = (em: EntityManager, resourceIds: string[]) =>
  executeStatement(em, (knex) => knex('secrets').whereIn('resource_id', resourceIds).delete())

export const deleteSecretsOfUser = (em: EntityManager, userId: string) =>
  executeStatement(em, (knex) => knex('secrets').where('user_id', userId).delete())

/** Deletes the secrets of these resources held by users who can no longer reach them. */
export const deleteSecretsWithoutAccess = async (em: EntityManager, resourceIds: string[]) => {
  if (resourceIds.length === 0) return
  await selectSql(
    em,
    `delete from secrets s where s.resource_id in (:ids) and not exists (
       select 1 from permissions p where p.aco_foreign_key = s.resource_id and (
         p.aro_foreign_key = s.user_id or p.aro_foreign_key in (
           select gu.group_id from group_members gu join group_records g on g.id = gu.group_id and not g.deleted
           where gu.user_id = s.user_id)))`,
    { ids: resourceIds },
  )
}
