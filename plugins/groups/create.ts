// Creating a group (administrators): a unique name and its first members, at least one of them
// a manager, all active users.
import { randomUUID } from 'node:crypto'
import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql'
import { badRequest } from '../../api/errors.ts'
import { executeStatement } from '../../api/orm.ts'
import { isUuid } from '../../api/uuid.ts'
import { ErrorTree } from '../../api/validation.ts'
import { messages } from './messages.ts'
import { checkName, MAX_ROWS, memberStates, toBoolean } from './rules.ts'

export interface NewGroupInput {
  name?: unknown
  groups_users?: unknown
}

export const createGroup = async (
  em: EntityManager,
  input: NewGroupInput,
  actorId: string,
): Promise<string> => {
  const errors = new ErrorTree()
  const name = await checkName(em, errors, input.name)
  const rows = input.groups_users
  const members: { user_id: string; is_admin: boolean; index: number }[] = []
  if (rows !== undefined && !Array.isArray(rows))
    errors.add(['groups_users'], 'array', messages.groupsUsersArray)
  else if (Array.isArray(rows) && rows.length > MAX_ROWS)
    errors.add(['groups_users'], 'hasAtMost', messages.groupsUsersArray)
  else
    for (const [index, raw] of (rows ?? []).entries()) {
      const row = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>
      const isAdmin = toBoolean(row.is_admin)
      let valid = true
      if (row.user_id === undefined || row.user_id === null) {
        errors.add(['groups_users', index, 'user_id'], '_required', messages.userIdRequired)
        valid = false
      } else if (!isUuid(row.user_id)) {
        errors.add(['groups_users', index, 'user_id'], 'uuid', messages.userIdUuid)
        valid = false
      }
      if (row.is_admin === undefined || row.is_admin === null) {
        errors.add(['groups_users', index, 'is_admin'], '_required', messages.isAdminRequired)
        valid = false
      } else if (isAdmin === undefined) {
        errors.add(['groups_users', index, 'is_admin'], 'boolean', messages.isAdminBoolean)
        valid = false
      }
      if (valid)
        members.push({ user_id: (row.user_id as string).toLowerCase(), is_admin: isAdmin!, index })
    }
  if (errors.empty || !errors.tree.groups_users) {
    const state = await memberStates(
      em,
      members.map((member) => member.user_id),
    )
    const seen = new Set<string>()
    for (const member of members) {
      const found = state(member.user_id)
      if (found !== 'ok')
        errors.add(['groups_users', member.index, 'user_id'], found, messages.userMissing)
      else if (seen.has(member.user_id))
        errors.add(
          ['groups_users', member.index, 'group_id'],
          'group_user_unique',
          messages.alreadyMember,
        )
      seen.add(member.user_id)
    }
    if (!members.some((member) => member.is_admin))
      errors.add(['groups_users'], 'at_least_one_group_manager', messages.managerRequired)
  }
  if (!errors.empty) throw badRequest(messages.validation, errors.tree)
  const id = randomUUID()
  const now = new Date()
  try {
    await executeStatement(em, (knex) =>
      knex('groups').insert({
        id,
        name,
        deleted: false,
        created: now,
        modified: now,
        created_by: actorId,
        modified_by: actorId,
      }),
    )
  } catch (error) {
    // Another request created a group of that name between the check and this insert.
    if (error instanceof UniqueConstraintViolationException)
      throw badRequest(messages.validation, { name: { group_unique: messages.nameUnique } })
    throw error
  }
  await executeStatement(em, (knex) =>
    knex('groups_users').insert(
      members.map((member) => ({
        id: randomUUID(),
        group_id: id,
        user_id: member.user_id,
        is_admin: member.is_admin,
        created: now,
        created_by: actorId,
      })),
    ),
  )
  return id
}
