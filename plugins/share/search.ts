// Finding who to share with: up to 25 active users (by username or name) and 25 live groups
// (by name, with their member count), merged and sorted by username or group name.
import type { EntityManager } from '@mikro-orm/postgresql'
import { formatTimestamp } from '../../api/envelope.ts'
import { selectRows } from '../../api/orm.ts'
import { GROUP_COLUMNS, type GroupRow, groupJson } from '../permissions/index.ts'
import { roleSummaries } from '../roles/index.ts'
import { attachGroupsUsers, embeddedUsers, gpgkeysOfUsers } from '../users/index.ts'

const LIMIT = 25

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

export interface SearchOptions {
  keyword: string | undefined
  contain: { groups_users: boolean; gpgkey: boolean; role: boolean }
  appUrl: string
}

export const searchAros = async (em: EntityManager, options: SearchOptions) => {
  const pattern = options.keyword ? `%${escapeLike(options.keyword)}%` : undefined
  const roles = await roleSummaries(em)
  const guests = roles.filter((role) => role.name === 'guest').map((role) => role.id)
  const userRows = await selectRows<{ id: string }>(em, (knex) => {
    const query = knex('users')
      .leftJoin('profiles', 'profiles.user_id', 'users.id')
      .where({ 'users.active': true, 'users.deleted': false })
      .whereNotIn('users.role_id', guests)
      .orderByRaw('lower(users.username)')
      .limit(LIMIT)
      .select('users.id')
    if (pattern)
      query.where((where) =>
        where
          .whereILike('users.username', pattern)
          .orWhereILike('profiles.first_name', pattern)
          .orWhereILike('profiles.last_name', pattern),
      )
    return query
  })
  const groups = await selectRows<GroupRow>(em, (knex) => {
    const query = knex('group_records')
      .where('group_records.deleted', false)
      .orderByRaw('lower(group_records.name)')
      .limit(LIMIT)
      .select(GROUP_COLUMNS)
      .select(
        knex('group_members')
          .count('*')
          .where('group_members.group_id', knex.ref('group_records.id'))
          .as('user_count'),
      )
    if (pattern) query.whereILike('group_records.name', pattern)
    return query
  })
  const users = await embeddedUsers(
    em,
    userRows.map((row) => row.id),
    { profile: true, appUrl: options.appUrl },
  )
  const userAros = userRows
    .map(({ id }) => users.get(id))
    .filter((user) => user !== undefined)
    .map((user) => ({ ...user }) as Record<string, unknown> & { id: string; role_id: string })
  if (options.contain.groups_users) await attachGroupsUsers(userAros, em)
  if (options.contain.role) {
    const byId = new Map(roles.map((role) => [role.id, role]))
    for (const user of userAros) {
      const role = byId.get(user.role_id)
      if (role)
        user.role = {
          ...role,
          created: formatTimestamp(role.created),
          modified: formatTimestamp(role.modified),
        }
    }
  }
  if (options.contain.gpgkey) {
    const keys = await gpgkeysOfUsers(
      em,
      userAros.map((user) => user.id),
    )
    for (const user of userAros) user.gpgkey = keys.get(user.id) ?? null
  }
  const found: (Record<string, unknown> & { sortKey: string })[] = userAros.map((user) => ({
    ...user,
    sortKey: String(user.username).toLowerCase(),
  }))
  for (const group of groups) found.push({ ...groupJson(group), sortKey: group.name.toLowerCase() })
  found.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0))
  return found.map(({ sortKey: _, ...aro }) => aro)
}
