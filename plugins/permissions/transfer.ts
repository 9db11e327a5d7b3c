// The permissions' part of a deletion's transfer of ownership: the permissions named become
// owner ones, provided the items named are exactly the shared items (resources and folders) the
// subject alone owns, as passbolt requires.
import { badRequest } from '../../api/errors.ts'
import { executeStatement } from '../../api/orm.ts'
import { isUuid } from '../../api/uuid.ts'
import type { DeletionHooks } from '../users/index.ts'
import { OWNER } from './levels.ts'
import { soleOwnedSharedItems } from './ownership.ts'

export const transferOwnership: NonNullable<DeletionHooks['transfer']> = async (
  em,
  subject,
  transfer,
  _app,
  actorId,
) => {
  const owners = transfer.owners ?? []
  if (owners.length === 0) return
  if (!owners.every((owner) => isUuid(owner?.id)))
    throw badRequest('The permissions identifiers must be valid UUID.')
  const blocking = [
    ...(await soleOwnedSharedItems(em, subject, 'Resource')),
    ...(await soleOwnedSharedItems(em, subject, 'Folder')),
  ].sort()
  const named = [
    ...new Set(owners.map((owner) => String(owner.aco_foreign_key).toLowerCase())),
  ].sort()
  if (named.join() !== [...new Set(blocking)].join())
    throw badRequest('The transfer is not authorized')
  await executeStatement(em, (knex) =>
    knex('permissions')
      .whereIn(
        'id',
        owners.map((owner) => owner.id.toLowerCase()),
      )
      .whereIn('aco_foreign_key', blocking)
      .update({ type: OWNER, modified: new Date(), modified_by: actorId }),
  )
}
