// The permission contains every shared item answers (resources, folders): its permissions, with
// their users' profiles or their groups, each loaded for the whole page in one query.
import type { ContainContext, ContainSpec } from '../../api/plugin.ts'
import { embedHolders, type PermissionJson, permissionsOfItems } from './render.ts'

type Row = Record<string, unknown> & { id: string }

const allPermissions = (rows: Row[]) => rows.flatMap((row) => row.permissions as PermissionJson[])

export const permissionContains = {
  permissions: {
    load: async (rows: Row[], { em }: ContainContext) => {
      const permissions = await permissionsOfItems(
        em,
        rows.map((row) => row.id),
      )
      for (const row of rows) row.permissions = permissions.get(row.id) ?? []
    },
  },
  'permissions.user.profile': {
    requires: ['permissions'],
    load: (rows: Row[], { em, app }: ContainContext) =>
      embedHolders(em, allPermissions(rows), { users: 'profile', appUrl: app.config.appUrl }),
  },
  'permissions.group': {
    requires: ['permissions'],
    load: (rows: Row[], { em, app }: ContainContext) =>
      embedHolders(em, allPermissions(rows), { groups: true, appUrl: app.config.appUrl }),
  },
} satisfies Record<string, ContainSpec>
