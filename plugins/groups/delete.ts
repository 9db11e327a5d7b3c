// Deleting a group (administrators and its managers): refused while it is the only owner of
// shared items (unless the request hands ownership over), else every plugin cleans up what it
// holds for the group, the group is soft-deleted, and its members' loss of access announced.
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { badRequest } from '../../api/errors.ts'
import { selectRows } from '../../api/orm.ts'
import {
  cleanUpDeletion,
  type DeletionTransfer,
  deletionBlockers,
  hasBlockers,
  transferOnDeletion,
} from '../users/index.ts'
import { announceReachChange, reachThroughGroup } from './access.ts'
import { messages } from './messages.ts'

const subjectOf = (id: string) => ({ kind: 'Group' as const, id })

/** 400 with the items blocking the deletion, in passbolt's body, when any does. */
const refuseWhenBlocked = async (em: EntityManager, app: AppContext, groupId: string) => {
  const blockers = await deletionBlockers(em, app, subjectOf(groupId))
  if (!hasBlockers(blockers)) return
  const reasons = Object.keys(blockers).length
  throw badRequest(`${messages.cannotDelete} ${Array(reasons).fill(messages.soleOwner).join('')}`, {
    errors: blockers,
  })
}

/** The dry run: refuses as the deletion would. */
export const deleteGroupDryRun = (em: EntityManager, app: AppContext, groupId: string) =>
  refuseWhenBlocked(em, app, groupId)

export const deleteGroup = async (
  em: EntityManager,
  app: AppContext,
  groupId: string,
  body: { transfer?: DeletionTransfer },
  actorId: string,
) => {
  if (body.transfer) await transferOnDeletion(em, app, subjectOf(groupId), body.transfer, actorId)
  await refuseWhenBlocked(em, app, groupId)
  const members = (
    await selectRows<{ user_id: string }>(em, (knex) =>
      knex('groups_users').where('group_id', groupId).select('user_id'),
    )
  ).map((row) => row.user_id)
  const before = await reachThroughGroup(em, groupId, members)
  await cleanUpDeletion(em, app, subjectOf(groupId), actorId)
  const after = await reachThroughGroup(em, groupId, members, [...before.keys()])
  await announceReachChange(em, app, before, after)
}
