// Changing who may access an item, as passbolt's share does: add (no `id`), change the level
// (`id`, `type`) or remove (`id`, `delete: true`) permissions, checked row by row, the item
// keeping at least one owner; and who gains or loses access through the change, groups
// expanded. The caller holds the item's lock and runs this in its transaction.
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { executeStatement, selectRows } from '../../api/orm.ts'
import { isUuid } from '../../api/uuid.ts'
import { ErrorTree } from '../../api/validation.ts'
import { type Aco, LEVELS, OWNER } from './levels.ts'
import { lockGroups } from './locks.ts'
import { PERMISSION_COLUMNS, type PermissionRow } from './render.ts'

/** One requested change, as the client sends it (unchecked). */
export type PermissionChange = Record<string, unknown>

type Tree = Record<string, unknown>

export interface ChangeOutcome {
  /** Validation errors keyed by row index (and `at_least_one_owner`), passbolt's shape. */
  errors?: Tree
  /** Users who can reach the item after the change but could not before. */
  gained: string[]
  /** Users who could reach the item before but cannot after. */
  lost: string[]
  /** Users who can reach the item after the change. */
  after: string[]
}

export const messages = {
  exists: 'The permission does not exist.',
  unique:
    'A permission already exists for the given access control object and access request object.',
  aroExists: 'The access request object does not exist.',
  aroInList: 'The access request object type should be one of the following: User, Group.',
  aroRequired: 'The type of the access request object is required.',
  aroKeyUuid: 'The identifier of the access request object should be a valid UUID.',
  aroKeyRequired: 'The identifier of the access request object is required.',
  acoKeyUuid: 'The identifier of the access control object should be a valid UUID.',
  deleteBoolean: 'The delete status should be a valid boolean.',
  typeInList: 'The type should be one of the following: 1, 7, 15.',
  typeRequired: 'A type is required.',
  atLeastOneOwner: 'At least one owner permission must be provided.',
  notArray: 'The permissions data must be an array.',
}

const isLevel = (value: unknown): value is number => LEVELS.includes(value as never)

/**
 * Members of these groups that are not deleted, by group id. The groups' rows are share-locked
 * first, so that a membership change of one of them (which holds its row for update) runs
 * wholly before or after this change: the secrets asked for match the members who get access.
 */
const membersOf = async (em: EntityManager, groupIds: string[], lock: boolean) => {
  const members = new Map<string, string[]>()
  if (groupIds.length === 0) return members
  if (lock) await lockGroups(em, groupIds)
  const rows = await selectRows<{ group_id: string; user_id: string }>(em, (knex) =>
    knex('group_members')
      .join('users', 'users.id', 'group_members.user_id')
      .whereIn('group_members.group_id', groupIds)
      .andWhere('users.deleted', false)
      .select('group_members.group_id', 'group_members.user_id'),
  )
  for (const row of rows)
    members.set(row.group_id, [...(members.get(row.group_id) ?? []), row.user_id])
  return members
}

/** Ids of those that may be given access: active, live users; live groups. */
const existingAros = async (em: EntityManager, users: string[], groups: string[]) => {
  const found = new Set<string>()
  if (users.length)
    for (const row of await selectRows<{ id: string }>(em, (knex) =>
      knex('users').whereIn('id', users).where({ active: true, deleted: false }).select('id'),
    ))
      found.add(row.id)
  if (groups.length)
    for (const row of await selectRows<{ id: string }>(em, (knex) =>
      knex('group_records').whereIn('id', groups).where({ deleted: false }).select('id'),
    ))
      found.add(row.id)
  return found
}

const usersReaching = (rows: PermissionRow[], members: Map<string, string[]>) => {
  const users = new Set<string>()
  for (const row of rows)
    if (row.aro === 'User') users.add(row.aro_foreign_key)
    else for (const member of members.get(row.aro_foreign_key) ?? []) users.add(member)
  return users
}

/**
 * Checks and, unless `dryRun`, applies the changes. With errors nothing is written. The lists
 * of users compare access before and after, groups expanded.
 */
export const applyPermissionChanges = async (
  em: EntityManager,
  options: { aco: Aco; acoId: string; changes: unknown; actorId: string; dryRun?: boolean },
): Promise<ChangeOutcome> => {
  const { aco, acoId, actorId } = options
  const current = await selectRows<PermissionRow>(em, (knex) =>
    knex('permissions').where({ aco, aco_foreign_key: acoId }).select(PERMISSION_COLUMNS),
  )
  const errors = new ErrorTree()
  const fail = (index: number, field: string, rule: string, message: string) =>
    errors.add([index, field], rule, message)
  const changes = Array.isArray(options.changes) ? options.changes : []
  const byId = new Map(current.map((row) => [row.id, row]))
  const next = new Map(current.map((row) => [row.id, { ...row }]))
  const removed: string[] = []
  const retyped: { id: string; type: number }[] = []
  const added: PermissionRow[] = []
  const newAros = { User: [] as string[], Group: [] as string[] }
  for (const [index, raw] of changes.entries()) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      fail(index, 'id', 'array', messages.notArray)
      continue
    }
    const change = raw as PermissionChange
    if (change.id !== undefined && change.id !== null) {
      const id = typeof change.id === 'string' ? change.id.toLowerCase() : ''
      const existing = byId.get(id)
      if (!existing || !next.has(id)) fail(index, 'id', 'exists', messages.exists)
      else if (change.delete === true || change.delete === 1 || change.delete === '1') {
        next.delete(id)
        removed.push(id)
      } else if (!isLevel(change.type)) fail(index, 'type', 'inList', messages.typeInList)
      else if (existing.type !== change.type) {
        next.get(id)!.type = change.type
        retyped.push({ id, type: change.type })
      }
      continue
    }
    const aro = change.aro
    const aroKey =
      typeof change.aro_foreign_key === 'string'
        ? change.aro_foreign_key.toLowerCase()
        : change.aro_foreign_key
    let valid = true
    if (aro === undefined) {
      fail(index, 'aro', '_required', messages.aroRequired)
      valid = false
    } else if (aro !== 'User' && aro !== 'Group') {
      fail(index, 'aro', 'inList', messages.aroInList)
      valid = false
    }
    if (aroKey === undefined) {
      fail(index, 'aro_foreign_key', '_required', messages.aroKeyRequired)
      valid = false
    } else if (!isUuid(aroKey)) {
      fail(index, 'aro_foreign_key', 'uuid', messages.aroKeyUuid)
      valid = false
    }
    if (change.type === undefined) {
      fail(index, 'type', '_required', messages.typeRequired)
      valid = false
    } else if (!isLevel(change.type)) {
      fail(index, 'type', 'inList', messages.typeInList)
      valid = false
    }
    if (!valid) continue
    const key = aroKey as string
    if ([...next.values(), ...added].some((row) => row.aro_foreign_key === key)) {
      fail(index, 'aco_foreign_key', 'permission_unique', messages.unique)
      continue
    }
    newAros[aro as 'User' | 'Group'].push(key)
    const now = new Date()
    added.push({
      id: randomUUID(),
      aco,
      aco_foreign_key: acoId,
      aro: aro as string,
      aro_foreign_key: key,
      type: change.type as number,
      created: now,
      modified: now,
      index,
    } as PermissionRow & { index: number })
  }
  const existing = await existingAros(em, newAros.User, newAros.Group)
  for (const row of added as (PermissionRow & { index: number })[])
    if (!existing.has(row.aro_foreign_key))
      fail(row.index, 'aro_foreign_key', 'aro_exists', messages.aroExists)
  const after = [...next.values(), ...added]
  if (errors.empty && !after.some((row) => row.type === OWNER))
    errors.add([], 'at_least_one_owner', messages.atLeastOneOwner)
  const groups = [
    ...new Set(
      [...current, ...added].filter((r) => r.aro === 'Group').map((r) => r.aro_foreign_key),
    ),
  ]
  const members = await membersOf(em, groups, !options.dryRun)
  const before = usersReaching(current, members)
  const reach = usersReaching(after, members)
  const outcome = {
    gained: [...reach].filter((user) => !before.has(user)),
    lost: [...before].filter((user) => !reach.has(user)),
    after: [...reach],
  }
  if (!errors.empty) return { ...outcome, errors: errors.tree }
  if (options.dryRun) return outcome
  if (removed.length)
    await executeStatement(em, (knex) => knex('permissions').whereIn('id', removed).delete())
  for (const { id, type } of retyped)
    await executeStatement(em, (knex) =>
      knex('permissions')
        .where({ id })
        .update({ type, modified: new Date(), modified_by: actorId }),
    )
  if (added.length)
    await executeStatement(em, (knex) =>
      knex('permissions').insert(
        added.map(({ id, aco_foreign_key, aro, aro_foreign_key, type, created, modified }) => ({
          id,
          aco,
          aco_foreign_key,
          aro,
          aro_foreign_key,
          type,
          created,
          modified,
          created_by: actorId,
          modified_by: actorId,
        })),
      ),
    )
  return outcome
}
