// The folders' part in deleting a user or a group: shared folders the subject alone owns block
// it (listed with their permissions, as passbolt lists them); otherwise folders nobody else can
// reach go with it, and so do its folder permissions.
import { executeStatement, selectRows } from '../../api/orm.ts'
import type { DeletionHooks } from '../../api/plugin.ts'
import {
  embedHolders,
  itemsOnlyReachableBy,
  type PermissionJson,
  permissionsOfItems,
  soleOwnedSharedItems,
} from '../permissions/index.ts'
import { FOLDER_COLUMNS, type FolderRow } from './query.ts'
import { folderJson } from './serialize.ts'
import { deleteFolders } from './service.ts'

export const folderDeletion: DeletionHooks = {
  blockers: async (em, subject, app): Promise<Record<string, Record<string, unknown[]>>> => {
    const ids = await soleOwnedSharedItems(em, subject, 'Folder')
    if (ids.length === 0) return {}
    const rows = await selectRows<FolderRow>(em, (knex) =>
      knex('folders').whereIn('id', ids).orderBy('name').select(FOLDER_COLUMNS),
    )
    const permissions = await permissionsOfItems(em, ids)
    // Listed as the administrator sees them: no place in anyone's tree, shared by definition.
    const folders = rows.map((row) => ({
      ...folderJson({ ...row, folder_parent_id: null, personal: false }),
      permissions: permissions.get(row.id) ?? [],
    }))
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
