// Reading groups as the API answers them: the live groups matching the filters the clients send
// (`has-users`, `has-managers`: groups holding all of them), then what `contain[...]` asks for,
// each relation with one query for the whole list.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import { formatTimestamp } from '../../api/envelope.ts'
import { selectRows } from '../../api/orm.ts'
import { GROUP_COLUMNS, type GroupRow, groupJson } from '../permissions/index.ts'
import { embeddedUsers, gpgkeysOfUsers } from '../users/index.ts'

export interface GroupFilters {
  ids?: string[]
  users?: string[]
  managers?: string[]
}

/** The canonical contains; the route maps passbolt's legacy names onto them. */
export interface GroupContain {
  modifier?: boolean
  'modifier.profile'?: boolean
  my_group_user?: boolean
  user_count?: boolean
  users?: boolean
  groups_users?: boolean
  'groups_users.user'?: boolean
  'groups_users.user.profile'?: boolean
  'groups_users.user.gpgkey'?: boolean
}

interface MembershipRow {
  id: string
  group_id: string
  user_id: string
  is_admin: boolean
  created: string
}

export type GroupJson = Record<string, unknown> & { id: string; name: string }

export const SORTABLE = { 'Groups.name': 'groups.name' } as const

/** Groups holding every one of `userIds` (as managers when `managers`). */
const holdingAll = (knex: Knex, userIds: string[], managers: boolean) => {
  const query = knex('groups_users')
    .select('group_id')
    .whereIn('user_id', userIds)
    .groupBy('group_id')
    .havingRaw('count(distinct user_id) = ?', [new Set(userIds).size])
  if (managers) query.where('is_admin', true)
  return query
}

const membershipJson = (row: MembershipRow) => ({
  id: row.id,
  group_id: row.group_id,
  user_id: row.user_id,
  is_admin: row.is_admin,
  created: formatTimestamp(row.created),
})

/** Memberships of these groups (live members only), by group id. */
const membershipsOf = async (em: EntityManager, groupIds: string[]) => {
  const rows = await selectRows<MembershipRow>(em, (knex) =>
    knex('groups_users')
      .join('users', 'users.id', 'groups_users.user_id')
      .whereIn('groups_users.group_id', groupIds)
      .where('users.deleted', false)
      .orderBy([{ column: 'groups_users.created' }, { column: 'groups_users.id' }])
      .select(
        'groups_users.id',
        'groups_users.group_id',
        'groups_users.user_id',
        'groups_users.is_admin',
        'groups_users.created',
      ),
  )
  const byGroup = new Map<string, MembershipRow[]>()
  for (const row of rows) byGroup.set(row.group_id, [...(byGroup.get(row.group_id) ?? []), row])
  return byGroup
}

/**
 * The live groups matching `filters`, sorted by `order` (name by default), with the contains
 * asked for. A fixed number of queries whatever the number of groups.
 */
export const selectGroups = async (
  em: EntityManager,
  options: {
    filters: GroupFilters
    contain: GroupContain
    order?: { field: string; direction: 'asc' | 'desc' }[]
    callerId: string
    appUrl: string
  },
): Promise<GroupJson[]> => {
  const { filters, contain } = options
  const rows = await selectRows<GroupRow>(em, (knex) => {
    const query = knex('groups')
      .where('groups.deleted', false)
      .select(GROUP_COLUMNS.map((column) => `groups.${column}`))
    // A deleted user's memberships are removed with them, so every membership counts.
    if (contain.user_count)
      query.select(
        knex('groups_users')
          .count('*')
          .where('groups_users.group_id', knex.ref('groups.id'))
          .as('user_count'),
      )
    if (filters.ids) query.whereIn('groups.id', filters.ids)
    if (filters.users?.length) query.whereIn('groups.id', holdingAll(knex, filters.users, false))
    if (filters.managers?.length)
      query.whereIn('groups.id', holdingAll(knex, filters.managers, true))
    for (const { field, direction } of options.order ?? [])
      query.orderBy(SORTABLE[field as keyof typeof SORTABLE] ?? 'groups.name', direction)
    return query.orderBy([{ column: 'groups.name' }, { column: 'groups.id' }])
  })
  // Contains are added to each group below.
  const groups: GroupJson[] = rows.map((row) => ({ ...groupJson(row) }))
  if (groups.length === 0) return groups
  const ids = groups.map((group) => group.id)
  const wantMembers = contain.groups_users || contain.users
  const memberships = wantMembers ? await membershipsOf(em, ids) : new Map()
  const memberIds = [...memberships.values()].flat().map((row: MembershipRow) => row.user_id)
  if (contain.groups_users) {
    const withUser = contain['groups_users.user']
    const users = withUser
      ? await embeddedUsers(em, memberIds, {
          profile: Boolean(contain['groups_users.user.profile']),
          appUrl: options.appUrl,
        })
      : new Map()
    const keys = contain['groups_users.user.gpgkey'] ? await gpgkeysOfUsers(em, memberIds) : null
    for (const group of groups)
      group.groups_users = (memberships.get(group.id) ?? []).map((row: MembershipRow) => {
        const json: Record<string, unknown> = membershipJson(row)
        if (withUser) {
          const user: Record<string, unknown> | undefined = users.get(row.user_id)
          json.user = user && (keys ? { ...user, gpgkey: keys.get(row.user_id) ?? null } : user)
        }
        return json
      })
  }
  if (contain.users) {
    const users = await embeddedUsers(em, memberIds, { profile: false, appUrl: options.appUrl })
    for (const group of groups)
      group.users = (memberships.get(group.id) ?? [])
        .map((row: MembershipRow) => users.get(row.user_id))
        .filter(Boolean)
  }
  if (contain.my_group_user) {
    const mine = await selectRows<MembershipRow>(em, (knex) =>
      knex('groups_users')
        .whereIn('group_id', ids)
        .where('user_id', options.callerId)
        .select('id', 'group_id', 'user_id', 'is_admin', 'created'),
    )
    const byGroup = new Map(mine.map((row) => [row.group_id, membershipJson(row)]))
    for (const group of groups) group.my_group_user = byGroup.get(group.id) ?? null
  }
  if (contain.modifier) {
    const modifiers = await embeddedUsers(
      em,
      rows.map((row) => row.modified_by).filter((id): id is string => id !== null),
      { profile: Boolean(contain['modifier.profile']), appUrl: options.appUrl },
    )
    for (const [index, group] of groups.entries()) {
      const by = rows[index].modified_by
      group.modifier = (by && modifiers.get(by)) ?? null
    }
  }
  return groups
}

/** One live group with these contains, or undefined. */
export const selectGroup = async (
  em: EntityManager,
  id: string,
  options: { contain: GroupContain; callerId: string; appUrl: string },
) => (await selectGroups(em, { ...options, filters: { ids: [id] } }))[0]
