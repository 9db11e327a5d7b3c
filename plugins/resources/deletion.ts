// The resources' part in deleting a user or a group: shared resources the subject alone owns
// block it (listed with their permissions for the administrator); otherwise resources nobody
// else can reach are deleted with it, its permissions go, and so do the secrets of anyone who
// no longer reaches a resource.

import { executeStatement, selectRows } from '../../api/orm.ts'
import {
  embedHolders,
  itemsOnlyReachableBy,
  type PermissionJson,
  permissionsOfItems,
  soleOwnedSharedItems,
} from '../permissions/index.ts'
import { deleteSecretsOfUser, deleteSecretsWithoutAccess } from '../secrets/index.ts'
import type { DeletionHooks } from '../users/index.ts'
import { selectResourcesById } from './query.ts'
import { resourceJson } from './serialize.ts'
import { softDeleteResources } from './service.ts'

export const resourceDeletion: DeletionHooks = {
  blockers: async (em, subject, app): Promise<Record<string, Record<string, unknown[]>>> => {
    const ids = await soleOwnedSharedItems(em, subject, 'Resource')
    if (ids.length === 0) return {}
    const resources = (await selectResourcesById(em, ids)).map(resourceJson)
    const permissions = await permissionsOfItems(em, ids)
    for (const resource of resources)
      resource.permissions = permissions.get(resource.id as string) ?? []
    await embedHolders(
      em,
      resources.flatMap((r) => r.permissions as PermissionJson[]),
      {
        users: 'profile',
        groups: true,
        appUrl: app.config.appUrl,
      },
    )
    return { resources: { sole_owner: resources } }
  },
  cleanup: async (em, subject, _app, actorId) => {
    const reached = (
      await selectRows<{ id: string }>(em, (knex) =>
        knex('permissions')
          .where({ aco: 'Resource', aro_foreign_key: subject.id })
          .select('aco_foreign_key as id'),
      )
    ).map((row) => row.id)
    await softDeleteResources(
      em,
      await itemsOnlyReachableBy(em, subject, 'Resource'),
      actorId ?? subject.id,
    )
    await executeStatement(em, (knex) =>
      knex('permissions').where({ aco: 'Resource', aro_foreign_key: subject.id }).delete(),
    )
    if (subject.kind === 'User') await deleteSecretsOfUser(em, subject.id)
    else await deleteSecretsWithoutAccess(em, reached)
  },
}
