// What `contain[...]` may add to resources, each loaded for the whole page in one query.
// `permission` comes from the list query itself.
import type { ContainContext, ContainSpec } from '../../api/plugin.ts'
import { favoritesOfUser } from '../favorites/index.ts'
import { embedHolders, type PermissionJson, permissionsOfItems } from '../permissions/index.ts'
import { listResourceTypes } from '../resource-types/index.ts'
import { secretsOfUser } from '../secrets/index.ts'
import { tagContain } from '../tags/index.ts'
import { embeddedUsers } from '../users/index.ts'

type Row = Record<string, unknown> & { id: string }

const ids = (rows: Row[]) => rows.map((row) => row.id)

const people = (
  field: 'creator' | 'modifier',
  source: 'created_by' | 'modified_by',
): ContainSpec => ({
  load: async (rows: Row[], { em, app }: ContainContext) => {
    const users = await embeddedUsers(
      em,
      rows.map((row) => row[source] as string).filter(Boolean),
      { profile: false, appUrl: app.config.appUrl },
    )
    for (const row of rows) row[field] = users.get(row[source] as string) ?? null
  },
})

const allPermissions = (rows: Row[]) => rows.flatMap((row) => row.permissions as PermissionJson[])

export const resourceContain = {
  creator: people('creator', 'created_by'),
  modifier: people('modifier', 'modified_by'),
  favorite: {
    load: async (rows: Row[], { em, user }: ContainContext) => {
      const favorites = await favoritesOfUser(em, user!.id, ids(rows))
      for (const row of rows) row.favorite = favorites.get(row.id) ?? null
    },
  },
  secret: {
    load: async (rows: Row[], { em, user }: ContainContext) => {
      const secrets = await secretsOfUser(em, user!.id, ids(rows))
      for (const row of rows) {
        const secret = secrets.get(row.id)
        row.secrets = secret ? [secret] : []
      }
    },
  },
  'resource-type': {
    load: async (rows: Row[], { em }: ContainContext) => {
      const types = new Map(
        [
          ...(await listResourceTypes(em, { deleted: false, resourcesCount: false, all: true })),
        ].map((type) => [type.id, type]),
      )
      for (const row of rows) row.resource_type = types.get(row.resource_type_id as string)
    },
  },
  permission: {},
  tag: tagContain,
  permissions: {
    load: async (rows: Row[], { em }: ContainContext) => {
      const permissions = await permissionsOfItems(em, ids(rows))
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
