// The one query behind every resource answer (list, view, and what create and update return):
// only resources the caller can read, each with the caller's level, joined in SQL; the filters
// passbolt's clients send; the caller's highest permission row when asked.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import { selectRows } from '../../api/orm.ts'
import { applyOrder, selectPage } from '../../api/pagination.ts'
import type { ParsedQuery } from '../../api/query.ts'
import { folderParentColumn, itemsUnderParents, personalColumn } from '../folder-tree/index.ts'
import {
  type CallerPermissionColumns,
  joinCallerPermission,
  OWNER,
  readableBy,
} from '../permissions/index.ts'
import { resourcesTagged } from '../tags/index.ts'

export const RESOURCE_COLUMNS = [
  'id',
  'name',
  'username',
  'uri',
  'description',
  'metadata',
  'metadata_key_id',
  'metadata_key_type',
  'resource_type_id',
  'deleted',
  'expired',
  'created',
  'modified',
  'created_by',
  'modified_by',
] as const

export interface ResourceRow extends CallerPermissionColumns {
  id: string
  name: string | null
  username: string | null
  uri: string | null
  description: string | null
  metadata: string | null
  metadata_key_id: string | null
  metadata_key_type: string | null
  resource_type_id: string
  deleted: boolean
  expired: string | null
  created: string
  modified: string
  created_by: string | null
  modified_by: string | null
  permission_type: number
  folder_parent_id: string | null
  personal: boolean
}

export const SORTABLE = {
  'Resources.name': 'resources.name',
  'Resources.username': 'resources.username',
  'Resources.uri': 'resources.uri',
  'Resources.modified': 'resources.modified',
} as const

export interface ResourceFilters {
  ids?: string[]
  favorite?: boolean
  ownedByMe?: boolean
  sharedWithMe?: boolean
  sharedWithGroup?: string
  metadataKeyType?: string
  /** Folder ids, `null` for the root: items under them in the caller's tree. */
  parents?: (string | null)[]
  /** Tagged with this slug: shared (`#…`), or by the caller. */
  tag?: string
}

export const listQuery = (
  knex: Knex,
  userId: string,
  filters: ResourceFilters,
  withPermission: boolean,
  /** Whether the rows carry `folder_parent_id` and `personal` (else the caller joins them). */
  treeColumns = true,
) => {
  const list = knex('resources')
    .join('resource_types', 'resource_types.id', 'resources.resource_type_id')
    .where('resources.deleted', false)
    .whereNull('resource_types.deleted')
    .select(RESOURCE_COLUMNS.map((column) => `resources.${column}`))
  // The caller's highest permission row carries their level: with it, a second pass over the
  // permissions for the level alone is spared.
  const level = withPermission ? 'highest.type' : 'access.permission_type'
  if (withPermission) joinCallerPermission(list, knex, userId, 'Resource', 'resources.id')
  else
    list.join(
      readableBy(knex, userId, 'Resource').as('access'),
      'access.aco_foreign_key',
      'resources.id',
    )
  list.select(`${level} as permission_type`)
  if (treeColumns)
    list.select(
      folderParentColumn(knex, userId, 'resources.id'),
      personalColumn(knex, 'resources.id'),
    )
  if (filters.ids) list.whereIn('resources.id', filters.ids)
  if (filters.favorite !== undefined) {
    const favorites = knex('favorites')
      .select('favorites.foreign_key')
      .where('favorites.user_id', userId)
    if (filters.favorite) list.whereIn('resources.id', favorites)
    else list.whereNotIn('resources.id', favorites)
  }
  if (filters.ownedByMe) list.where(level, OWNER)
  if (filters.sharedWithMe) list.where(level, '<', OWNER)
  if (filters.sharedWithGroup)
    list.whereIn(
      'resources.id',
      knex('permissions').select('permissions.aco_foreign_key').where({
        'permissions.aco': 'Resource',
        'permissions.aro_foreign_key': filters.sharedWithGroup,
      }),
    )
  if (filters.metadataKeyType) list.where('resources.metadata_key_type', filters.metadataKeyType)
  if (filters.parents)
    list.whereIn('resources.id', itemsUnderParents(knex, userId, filters.parents))
  if (filters.tag !== undefined)
    list.whereIn('resources.id', resourcesTagged(knex, userId, filters.tag))
  return list
}

/**
 * Live resources by id, whoever can read them (what a user or group deletion reports to the
 * administrator deleting them).
 */
export const selectResourcesById = (em: EntityManager, ids: string[]) =>
  selectRows<ResourceRow>(em, (knex) =>
    knex('resources')
      .whereIn('resources.id', ids)
      .where('resources.deleted', false)
      .select(RESOURCE_COLUMNS.map((column) => `resources.${column}`))
      .select(knex.raw('null as permission_type'), knex.raw('null as folder_parent_id'))
      .select(personalColumn(knex, 'resources.id'))
      .orderBy('resources.name'),
  )

/** The page of resources the user can read that match the filters. */
export const selectResources = (
  em: EntityManager,
  userId: string,
  query: Pick<ParsedQuery, 'page' | 'limit' | 'order' | 'contain'>,
  filters: ResourceFilters,
) =>
  selectPage<ResourceRow>(em, query, (knex) =>
    applyOrder(
      listQuery(knex, userId, filters, Boolean(query.contain.permission)),
      query.order,
      SORTABLE,
    ).orderBy('resources.id'),
  )
