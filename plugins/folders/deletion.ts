// The folders' part in deleting a user or a group: shared folders the subject alone owns block
// it (listed with their permissions, as passbolt lists them); otherwise the folders nobody else
// reaches are deleted with it, and its folder permissions go.
import { executeStatement } from '../../api/orm.ts'
import {
  embedHolders,
  itemsOnlyReachableBy,
  type PermissionJson,
  permissionsOfItems,
  soleOwnedSharedItems,
} from '../permissions/index.ts'
import type { DeletionHooks } from '../users/index.ts'
import { selectFolders } from './query.ts'
import { folderJson } from './serialize.ts'
import { deleteFolders } from './service.ts'

export const folderDeletion: DeletionHooks = {
  blockers: async (em, subject, app): Promise<Record<string, Record<string, unknown[]>>> => {
    const ids = await soleOwnedSharedItems(em, subject, 'Folder')
    if (ids.length === 0) return {}
    // The subject stands where a caller would: the folders its own permissions reach.
    const { rows } = await selectFolders(
      em,
      subject.id,
      { page: 1, limit: null, order: [], contain: {} },
      { ids },
    )
    const folders = rows.map(folderJson)
    const permissions = await permissionsOfItems(em, ids)
    for (const folder of folders) folder.permissions = permissions.get(folder.id) ?? []
    await embedHolders(
      em,
      folders.flatMap((folder) => folder.permissions as PermissionJson[]),
      { users: 'profile', groups: true, appUrl: app.config.appUrl },
    )
    return { folders: { sole_owner: folders } }
  },
  cleanup: async (em, subject) => {
    await deleteFolders(em, await itemsOnlyReachableBy(em, subject, 'Folder'))
    await executeStatement(em, (knex) =>
      knex('permissions').where({ aco: 'Folder', aro_foreign_key: subject.id }).delete(),
    )
  },
}
