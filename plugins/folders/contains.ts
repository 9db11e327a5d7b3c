// What `contain[...]` may add to folders, each loaded for the whole page in one query.
// `permission` comes from the list query itself.
import { type ContainContext, type ContainSpec, callerOf } from '../../api/plugin.ts'
import { permissionContains } from '../permissions/index.ts'
import { resourceJson, selectResources } from '../resources/index.ts'
import { embeddedUserContain } from '../users/index.ts'
import { selectFolders } from './query.ts'
import { folderJson } from './serialize.ts'

type Row = Record<string, unknown> & { id: string }

const ids = (rows: Row[]) => rows.map((row) => row.id)

/** Groups children by their parent folder in the caller's tree. */
const byParent = <T extends Record<string, unknown>>(children: T[]) => {
  const map = new Map<string, T[]>()
  for (const child of children) {
    const parent = child.folder_parent_id as string
    map.set(parent, [...(map.get(parent) ?? []), child])
  }
  return map
}

const listAll = { page: 1, limit: null, order: [], contain: {} }

export const folderContain = {
  children_resources: {
    load: async (rows: Row[], context: ContainContext) => {
      const { rows: children } = await selectResources(context.em, callerOf(context).id, listAll, {
        parents: ids(rows),
      })
      const grouped = byParent(children.map(resourceJson))
      for (const row of rows) row.children_resources = grouped.get(row.id) ?? []
    },
  },
  children_folders: {
    load: async (rows: Row[], context: ContainContext) => {
      const { rows: children } = await selectFolders(context.em, callerOf(context).id, listAll, {
        parents: ids(rows),
      })
      const grouped = byParent(children.map(folderJson))
      for (const row of rows) row.children_folders = grouped.get(row.id) ?? []
    },
  },
  creator: embeddedUserContain('creator', 'created_by'),
  'creator.profile': { requires: ['creator'] },
  modifier: embeddedUserContain('modifier', 'modified_by'),
  'modifier.profile': { requires: ['modifier'] },
  permission: {},
  ...permissionContains,
} satisfies Record<string, ContainSpec>
