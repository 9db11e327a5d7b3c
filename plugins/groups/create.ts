// Creating a group (administrators): a unique name and its first members, at least one of them
// a manager, all active users.
import { randomUUID } from 'node:crypto'
import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql'
import { badRequest } from '../../api/errors.ts'
import { executeStatement } from '../../api/orm.ts'
import { ErrorTree } from '../../api/validation.ts'
import { messages } from './messages.ts'
import { isNameTaken, memberStates, toBoolean } from './rules.ts'
import type { CreateBody } from './schemas.ts'

/**
 * Creates the group from a body its schema validated (passbolt's validation), after the checks
 * passbolt makes on the data (its rules): the name is free, the users can join, one manages.
 */
export const createGroup = async (
  em: EntityManager,
  input: CreateBody,
  actorId: string,
): Promise<string> => {
  const errors = new ErrorTree()
  const name = input.name
  if (await isNameTaken(em, name)) errors.add(['name'], 'group_unique', messages.nameUnique)
  const members = (input.groups_users ?? []).map((row, index) => ({
    user_id: row.user_id.toLowerCase(),
    is_admin: toBoolean(row.is_admin) === true,
    index,
  }))
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
