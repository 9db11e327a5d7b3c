// Permissions as the API answers them, and the holders (users, groups) some answers embed.
import type { EntityManager } from '@mikro-orm/postgresql'
import { formatTimestamp } from '../../api/envelope.ts'
import { selectRows } from '../../api/orm.ts'
import { type EmbeddedUser, embeddedUsers } from '../users/index.ts'

export interface PermissionRow {
  id: string
  aco: string
  aco_foreign_key: string
  aro: string
  aro_foreign_key: string
  type: number
  created: string | Date
  modified: string | Date
}

export interface PermissionJson {
  id: string
  aco: string
  aco_foreign_key: string
  aro: string
  aro_foreign_key: string
  type: number
  created: string | null
  modified: string | null
  user?: EmbeddedUser
  group?: GroupJson
}

/** The row made the answer's shape in place: lists turn tens of thousands of them. */
export const permissionJson = (row: PermissionRow): PermissionJson => {
  const json = row as unknown as PermissionJson
  json.type = Number(row.type)
  json.created = formatTimestamp(row.created)
  json.modified = formatTimestamp(row.modified)
  return json
}

export const PERMISSION_COLUMNS = [
  'id',
  'aco',
  'aco_foreign_key',
  'aro',
  'aro_foreign_key',
  'type',
  'created',
  'modified',
] as const

/** Every permission on these items, grouped by item id, in one query. */
export const permissionsOfItems = async (em: EntityManager, ids: readonly string[]) => {
  const byItem = new Map<string, PermissionJson[]>()
  if (ids.length === 0) return byItem
  const rows = await selectRows<PermissionRow>(em, (knex) =>
    knex('permissions')
      .whereIn('aco_foreign_key', ids)
      .orderBy([{ column: 'aco_foreign_key' }, { column: 'created' }, { column: 'id' }])
      .select(PERMISSION_COLUMNS.map((column) => `permissions.${column}`)),
  )
  for (const row of rows) {
    const list = byItem.get(row.aco_foreign_key) ?? []
    list.push(permissionJson(row))
    byItem.set(row.aco_foreign_key, list)
  }
  return byItem
}

export interface GroupJson {
  id: string
  name: string
  deleted: boolean
  created: string | null
  modified: string | null
  created_by?: string
  modified_by?: string
}

/** A group's columns as the API answers them. */
export const GROUP_COLUMNS = [
  'id',
  'name',
  'deleted',
  'created',
  'modified',
  'created_by',
  'modified_by',
] as const

export interface GroupRow {
  id: string
  name: string
  deleted: boolean
  created: string
  modified: string
  created_by: string | null
  modified_by: string | null
  /** When the query counted the members. */
  user_count?: string
}

/** A group as the API answers it, with `user_count` when the row has it. */
export const groupJson = (row: GroupRow): GroupJson & { user_count?: number } => ({
  id: row.id,
  name: row.name,
  deleted: row.deleted,
  created: formatTimestamp(row.created),
  modified: formatTimestamp(row.modified),
  ...(row.created_by ? { created_by: row.created_by } : {}),
  ...(row.modified_by ? { modified_by: row.modified_by } : {}),
  ...(row.user_count !== undefined ? { user_count: Number(row.user_count) } : {}),
})

/** The groups with these ids, by id. */
export const groupsByIds = async (em: EntityManager, ids: Iterable<string>) => {
  const wanted = [...new Set(ids)]
  if (wanted.length === 0) return new Map<string, GroupJson>()
  const rows = await selectRows<GroupRow>(em, (knex) =>
    knex('group_records').whereIn('id', wanted).select(GROUP_COLUMNS),
  )
  return new Map(rows.map((row) => [row.id, groupJson(row)]))
}

/** Sets `user` (with or without profile) on user permissions and `group` on group ones. */
export const embedHolders = async (
  em: EntityManager,
  permissions: PermissionJson[],
  options: { users?: 'user' | 'profile'; groups?: boolean; appUrl: string },
) => {
  if (options.users) {
    const users = await embeddedUsers(
      em,
      permissions.filter((p) => p.aro === 'User').map((p) => p.aro_foreign_key),
      { profile: options.users === 'profile', appUrl: options.appUrl },
    )
    for (const permission of permissions)
      if (permission.aro === 'User') {
        const user = users.get(permission.aro_foreign_key)
        if (user) permission.user = user
      }
  }
  if (options.groups) {
    const groups = await groupsByIds(
      em,
      permissions.filter((p) => p.aro === 'Group').map((p) => p.aro_foreign_key),
    )
    for (const permission of permissions)
      if (permission.aro === 'Group') {
        const group = groups.get(permission.aro_foreign_key)
        if (group) permission.group = group
      }
  }
}
