// Permissions: who may read, update or own each resource and folder, directly or through a
// group. Other plugins ask it for a caller's level, declare its access policies on their routes,
// and join `readableBy` in their lists.
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { type AccessChange, definePlugin } from '../../api/plugin.ts'
import { userDeletion, userDirectory } from '../users/index.ts'
import { PermissionSchema } from './entities/Permission.ts'
import { routes } from './routes.ts'
import { transferOwnership } from './transfer.ts'
import { userDirectoryFilters } from './user-filter.ts'

export { usersWithAccess, usersWithAccessQuery } from './access.ts'
export {
  type CallerPermissionColumns,
  callerPermissionJson,
  joinCallerPermission,
} from './caller-permission.ts'
export { MAX_PERMISSION_CHANGES, permissionChanges } from './change-schema.ts'
export {
  applyPermissionChanges,
  type ChangeOutcome,
  messages as permissionMessages,
} from './changes.ts'
export { permissionContains } from './contains.ts'
export { grantOwnerToCreator } from './creation.ts'
export { callerPermissionObject, permissionsOfItemsDocuments } from './documents.ts'
export type { Permission } from './entities/Permission.ts'
export * from './levels.ts'
export { lockGroups, lockGroupsReaching } from './locks.ts'
export { itemsOnlyReachableBy, sharedItemIds, soleOwnedSharedItems } from './ownership.ts'
export { type CanAccessOptions, canAccess, type Granted } from './policies.ts'
export {
  embedHolders,
  GROUP_COLUMNS,
  type GroupJson,
  type GroupRow,
  groupJson,
  groupsByIds,
  type PermissionJson,
  permissionJson,
  permissionsOfItems,
} from './render.ts'
export {
  embeddedGroupJson,
  permissionContainsResponse,
  permissionResponse,
  permissionType,
  shareSimulationResponse,
} from './schemas.ts'
export {
  type AccessRefusal,
  arosOf,
  effectivePermission,
  highestPermissionRows,
  readableBy,
  requireAccess,
} from './service.ts'
export { PermissionSchema }

/**
 * Tells every plugin that follows access (folder trees, favorites…) who gained and lost it, for
 * many items at once.
 */
export const announceAccessChanges = async (
  em: EntityManager,
  app: AppContext,
  changes: readonly AccessChange[],
) => {
  const real = changes.filter((change) => change.gained.length > 0 || change.lost.length > 0)
  if (real.length === 0) return
  for (const plugin of app.plugins) await plugin.accessChanged?.(em, real, app)
}

/** Tells every plugin that follows access who gained and lost it on one item. */
export const announceAccessChange = (em: EntityManager, app: AppContext, change: AccessChange) =>
  announceAccessChanges(em, app, [change])

export default definePlugin({
  name: 'permissions',
  dependsOn: ['users'],
  entities: [PermissionSchema],
  routes,
  extensions: [
    userDeletion.provide({ transfer: transferOwnership }),
    userDirectory.provide({ filters: userDirectoryFilters }),
  ],
})
