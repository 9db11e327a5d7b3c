// The query behind every folder answer: only folders the caller can read, each with the
// caller's level, parent (in the caller's tree) and whether it is personal; the filters the
// clients send; the caller's highest permission row when asked.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import { applyOrder, selectPage } from '../../api/pagination.ts'
import type { ParsedQuery } from '../../api/query.ts'
import { folderParentColumn, itemsUnderParents, personalColumn } from '../folder-tree/index.ts'
import {
  type CallerPermissionColumns,
  joinCallerPermission,
  readableBy,
} from '../permissions/index.ts'

export const FOLDER_COLUMNS = [
  'id',
  'name',
  'metadata',
  'metadata_key_id',
  'metadata_key_type',
  'created',
  'modified',
  'created_by',
  'modified_by',
] as const

export interface FolderRow extends CallerPermissionColumns {
  id: string
  name: string | null
  metadata: string | null
  metadata_key_id: string | null
  metadata_key_type: string | null
  created: string
  modified: string
  created_by: string | null
  modified_by: string | null
  permission_type: number
  folder_parent_id: string | null
  personal: boolean
}

export const SORTABLE = {
  'Folders.name': 'folders.name',
  'Folders.created': 'folders.created',
  'Folders.modified': 'folders.modified',
} as const

export interface FolderFilters {
  ids?: string[]
  parents?: (string | null)[]
  search?: string
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

const listQuery = (knex: Knex, userId: string, filters: FolderFilters, withPermission: boolean) => {
  const list = knex('folders')
    .join(readableBy(knex, userId, 'Folder').as('access'), 'access.aco_foreign_key', 'folders.id')
    .select(FOLDER_COLUMNS.map((column) => `folders.${column}`))
    .select('access.permission_type')
    .select(folderParentColumn(knex, userId, 'folders.id'), personalColumn(knex, 'folders.id'))
  if (filters.ids) list.whereIn('folders.id', filters.ids)
  if (filters.parents) list.whereIn('folders.id', itemsUnderParents(knex, userId, filters.parents))
  if (filters.search) list.whereILike('folders.name', `%${escapeLike(filters.search)}%`)
  if (withPermission) joinCallerPermission(list, knex, userId, 'Folder', 'folders.id')
  return list
}

/** The page of folders the user can read that match the filters. */
export const selectFolders = (
  em: EntityManager,
  userId: string,
  query: Pick<ParsedQuery, 'page' | 'limit' | 'order' | 'contain'>,
  filters: FolderFilters,
) =>
  selectPage<FolderRow>(em, query, (knex) =>
    applyOrder(
      listQuery(knex, userId, filters, Boolean(query.contain.permission)),
      query.order,
      SORTABLE,
    ).orderBy('folders.id'),
  )
