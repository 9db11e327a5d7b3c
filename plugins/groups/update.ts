// Updating a group: administrators rename it; managers add members (with the secrets they
// need); administrators and managers change roles and remove members. Checked as a whole
// first, then written, in the caller's transaction with the group's row locked; access
// changes are announced so that folder trees, favorites and tags follow.
import { randomUUID } from 'node:crypto'
import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { lockRows } from '../../api/db/transaction.ts'
import { badRequest } from '../../api/errors.ts'
import { executeStatement, selectRows } from '../../api/orm.ts'
import { ErrorTree } from '../../api/validation.ts'
import { writeSecretsOfResources } from '../secrets/index.ts'
import { announceReachChange, reachThroughGroup } from './access.ts'
import { type Change, parseChanges, parseSecrets } from './changes.ts'
import { messages } from './messages.ts'
import type { GroupGrant } from './policies.ts'
import { checkName, memberStates, toBoolean } from './rules.ts'
import {
  checkNewMemberSecrets,
  deleteLostSecrets,
  neededSecrets,
  secretsOfCaller,
} from './secrets.ts'

export interface GroupUpdateInput {
  name?: unknown
  groups_users?: unknown
  secrets?: unknown
}

interface Membership {
  id: string
  user_id: string
  is_admin: boolean
}

const membershipsOf = (em: EntityManager, groupId: string) =>
  selectRows<Membership>(em, (knex) =>
    knex('groups_users').where('group_id', groupId).select('id', 'user_id', 'is_admin'),
  )

type Add = Extract<Change, { kind: 'add' }>

/** Adds allowed for the caller (managers only; others' are ignored, as passbolt does). */
const checkAdds = async (
  em: EntityManager,
  errors: ErrorTree,
  adds: Add[],
  members: Membership[],
) => {
  const state = await memberStates(
    em,
    adds.map((add) => add.userId),
  )
  const present = new Set(members.map((member) => member.user_id))
  const accepted: { userId: string; isAdmin: boolean; index: number }[] = []
  for (const add of adds) {
    const at = ['groups_users', add.index]
    const isAdmin = toBoolean(add.isAdmin)
    const found = state(add.userId)
    if (add.isAdmin === undefined || add.isAdmin === null)
      errors.add([...at, 'is_admin'], '_required', messages.isAdminRequired)
    else if (found !== 'ok') errors.add([...at, 'user_id'], found, messages.userMissing)
    else if (present.has(add.userId))
      errors.add([...at, 'group_id'], 'group_user_unique', messages.alreadyMember)
    else accepted.push({ userId: add.userId, isAdmin: isAdmin!, index: add.index })
    present.add(add.userId)
  }
  return accepted
}

/**
 * Role changes (promotions first) then removals, on the memberships as they stand after the
 * additions; the group keeps at least one manager throughout.
 */
const checkRolesAndRemovals = (
  errors: ErrorTree,
  changes: Change[],
  members: Membership[],
  addedManagers: number,
) => {
  const byId = new Map(members.map((member) => [member.id, { ...member }]))
  let managers = members.filter((member) => member.is_admin).length + addedManagers
  const roles = changes
    .filter((change) => change.kind === 'role')
    .sort((a, b) => Number(b.isAdmin) - Number(a.isAdmin))
  const retyped: { id: string; isAdmin: boolean }[] = []
  for (const change of roles) {
    const member = byId.get(change.id)
    if (!member) {
      errors.add(['groups_users', change.index, 'id'], 'exists', messages.groupUserMissing)
      continue
    }
    if (member.is_admin === change.isAdmin) continue
    if (!change.isAdmin && managers === 1) {
      errors.add(
        ['groups_users', change.index, 'is_admin'],
        'at_least_one_group_manager',
        messages.lastManager,
      )
      continue
    }
    managers += change.isAdmin ? 1 : -1
    member.is_admin = change.isAdmin
    retyped.push({ id: member.id, isAdmin: change.isAdmin })
  }
  const removed: Membership[] = []
  for (const change of changes) {
    if (change.kind !== 'remove') continue
    const member = byId.get(change.id)
    if (!member) {
      errors.add(['groups_users', change.index, 'id'], 'exists', messages.groupUserMissing)
      continue
    }
    if (member.is_admin && managers === 1) {
      errors.add(
        ['groups_users', change.index, 'is_admin'],
        'at_least_one_group_manager',
        messages.lastManager,
      )
      continue
    }
    if (member.is_admin) managers -= 1
    byId.delete(change.id)
    removed.push(member)
  }
  return { retyped, removed }
}

const rename = async (em: EntityManager, groupId: string, name: string, actorId: string) => {
  try {
    await executeStatement(em, (knex) =>
      knex('groups')
        .where('id', groupId)
        .update({ name, modified: new Date(), modified_by: actorId }),
    )
  } catch (error) {
    // Another request took the name between the check and this update.
    if (error instanceof UniqueConstraintViolationException)
      throw badRequest(messages.validation, { name: { group_unique: messages.nameUnique } })
    throw error
  }
}

export const updateGroup = async (
  em: EntityManager,
  app: AppContext,
  groupId: string,
  input: GroupUpdateInput,
  caller: GroupGrant & { id: string },
) => {
  const changes = parseChanges(input.groups_users)
  const errors = new ErrorTree()
  // passbolt renames for administrators only and ignores an empty name.
  const name =
    caller.isAdmin && input.name !== undefined && input.name !== null && input.name !== ''
      ? await checkName(em, errors, input.name, groupId)
      : undefined
  const members = await membershipsOf(em, groupId)
  const adds = caller.isManager
    ? changes.filter((change): change is Add => change.kind === 'add')
    : []
  const added = await checkAdds(em, errors, adds, members)
  const { retyped, removed } = checkRolesAndRemovals(
    errors,
    changes,
    members,
    added.filter((member) => member.isAdmin).length,
  )
  const affected = [...added.map((member) => member.userId), ...removed.map((m) => m.user_id)]
  // What a member reaches also runs through their other groups: two updates of two groups that
  // share a member (one adding, one removing) must not both read that member's reach before
  // either writes, or one deletes a secret the other's new membership still needs.
  await lockRows(em, 'users', affected, 'update')
  const needed = await neededSecrets(
    em,
    groupId,
    added.map((member) => member.userId),
  )
  const secrets = await checkNewMemberSecrets(
    em,
    errors,
    added,
    needed,
    parseSecrets(input.secrets, errors),
  )
  if (!errors.empty) throw badRequest(messages.validation, errors.tree)

  const before = await reachThroughGroup(em, groupId, affected)
  if (name !== undefined) await rename(em, groupId, name, caller.id)
  const now = new Date()
  if (added.length)
    await executeStatement(em, (knex) =>
      knex('groups_users').insert(
        added.map((member) => ({
          id: randomUUID(),
          group_id: groupId,
          user_id: member.userId,
          is_admin: member.isAdmin,
          created: now,
          created_by: caller.id,
        })),
      ),
    )
  await writeSecretsOfResources(em, secrets, caller.id)
  for (const isAdmin of [true, false]) {
    const ids = retyped.filter((change) => change.isAdmin === isAdmin).map((change) => change.id)
    if (ids.length)
      await executeStatement(em, (knex) =>
        knex('groups_users').whereIn('id', ids).update({ is_admin: isAdmin }),
      )
  }
  if (removed.length) {
    await executeStatement(em, (knex) =>
      knex('groups_users')
        .whereIn(
          'id',
          removed.map((member) => member.id),
        )
        .delete(),
    )
    const resources = [...before.keys()]
      .filter((key) => key.startsWith('Resource|'))
      .map((key) => key.slice('Resource|'.length))
    await deleteLostSecrets(
      em,
      removed.map((member) => member.user_id),
      resources,
    )
  }
  if (added.length || retyped.length || removed.length)
    await executeStatement(em, (knex) =>
      knex('groups').where('id', groupId).update({ modified: now, modified_by: caller.id }),
    )
  await announceReachChange(em, app, before, await reachThroughGroup(em, groupId, affected))
}

/**
 * What the client must send to apply these changes: the secrets each added member needs
 * (`SecretsNeeded`) and the caller's own secrets of those resources to re-encrypt (`Secrets`),
 * in passbolt's v1 shape, which the extension still reads.
 */
export const updateGroupDryRun = async (
  em: EntityManager,
  groupId: string,
  input: GroupUpdateInput,
  caller: GroupGrant & { id: string },
) => {
  const changes = parseChanges(input.groups_users)
  const adds = caller.isManager
    ? changes.filter((change): change is Add => change.kind === 'add')
    : []
  const state = await memberStates(
    em,
    adds.map((add) => add.userId),
  )
  const errors = new ErrorTree()
  for (const add of adds)
    if (state(add.userId) !== 'ok')
      errors.add(['groups_users', add.index, 'user_id'], 'user_exists', 'Cannot find the user.')
  if (!errors.empty) throw badRequest(messages.validation, errors.tree)
  const needed = await neededSecrets(
    em,
    groupId,
    adds.map((add) => add.userId),
  )
  const pairs = [...needed].flatMap(([userId, resources]) =>
    [...resources].map((resourceId) => ({ resource_id: resourceId, user_id: userId })),
  )
  const own = await secretsOfCaller(em, caller.id, [
    ...new Set(pairs.map((pair) => pair.resource_id)),
  ])
  return {
    'dry-run': {
      SecretsNeeded: pairs.map((pair) => ({ Secret: pair })),
      Secrets: own.map((secret) => ({ Secret: [secret] })),
    },
  }
}
