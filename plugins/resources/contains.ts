// What `contain[...]` may add to resources, each loaded for the whole page in one query.
// `permission` comes from the list query itself.
import { type ContainContext, type ContainSpec, callerOf } from '../../api/plugin.ts'
import { favoritesOfUser } from '../favorites/index.ts'
import { permissionContains } from '../permissions/index.ts'
import { listResourceTypes } from '../resource-types/index.ts'
import { secretsOfUser } from '../secrets/index.ts'
import { tagContain } from '../tags/index.ts'
import { embeddedUserContain } from '../users/index.ts'

type Row = Record<string, unknown> & { id: string }

const ids = (rows: Row[]) => rows.map((row) => row.id)

export const resourceContain = {
  creator: embeddedUserContain('creator', 'created_by'),
  modifier: embeddedUserContain('modifier', 'modified_by'),
  favorite: {
    plugin: 'favorites',
    load: async (rows: Row[], context: ContainContext) => {
      const favorites = await favoritesOfUser(context.em, callerOf(context).id, ids(rows))
      for (const row of rows) row.favorite = favorites.get(row.id) ?? null
    },
  },
  secret: {
    load: async (rows: Row[], context: ContainContext) => {
      const secrets = await secretsOfUser(context.em, callerOf(context).id, ids(rows))
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
  ...permissionContains,
} satisfies Record<string, ContainSpec>
