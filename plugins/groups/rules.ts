// The checks group writes share: the name (present, UTF-8, at most 255 characters, unique among
// live groups), passbolt's booleans, and which users may be made members.
import type { EntityManager } from '@mikro-orm/postgresql'
import { selectRows } from '../../api/orm.ts'
import { type ErrorTree, isWellFormedText } from '../../api/validation.ts'
import { messages } from './messages.ts'

/** Most rows one request may change: far above any real group, low enough to bound the work. */
export const MAX_ROWS = 10_000

/** CakePHP's boolean rule: true, false, 0, 1, '0', '1'. */
export const toBoolean = (value: unknown): boolean | undefined => {
  if (value === true || value === 1 || value === '1') return true
  if (value === false || value === 0 || value === '0') return false
  return undefined
}

/** The first of passbolt's name rules `name` breaks, in passbolt's order, or none. */
export const nameRule = (name: unknown): readonly [rule: string, message: string] | undefined => {
  if (name === undefined || name === null) return ['_required', messages.nameRequired]
  if (typeof name !== 'string' || !isWellFormedText(name))
    return ['utf8Extended', messages.nameUtf8]
  if (name.trim() === '') return ['_empty', messages.nameEmpty]
  if ([...name].length > 255) return ['maxLength', messages.nameLength]
  return undefined
}

/** Whether a live group other than `exceptGroup` has this name. */
export const isNameTaken = async (em: EntityManager, name: string, exceptGroup?: string) => {
  const taken = await selectRows<{ id: string }>(em, (knex) => {
    const query = knex('groups').where({ name, deleted: false }).select('id').limit(1)
    if (exceptGroup) query.whereNot('id', exceptGroup)
    return query
  })
  return taken.length > 0
}

/** Adds the name's errors under `name`; returns the name when it is acceptable. */
export const checkName = async (
  em: EntityManager,
  errors: ErrorTree,
  name: unknown,
  exceptGroup?: string,
): Promise<string | undefined> => {
  const broken = nameRule(name)
  if (broken) {
    errors.add(['name'], ...broken)
    return undefined
  }
  // Text by now: the rules refuse anything else.
  if (typeof name !== 'string') return undefined
  if (await isNameTaken(em, name, exceptGroup)) {
    errors.add(['name'], 'group_unique', messages.nameUnique)
    return undefined
  }
  return name
}

export type UserState = 'ok' | 'user_exists' | 'user_is_not_soft_deleted' | 'user_is_active'

/** Whether each user may join a group (exists, not deleted, active), by id. */
export const memberStates = async (em: EntityManager, userIds: string[]) => {
  const rows = userIds.length
    ? await selectRows<{ id: string; active: boolean; deleted: boolean }>(em, (knex) =>
        knex('users')
          .whereIn('id', [...new Set(userIds)])
          .select('id', 'active', 'deleted'),
      )
    : []
  const byId = new Map(rows.map((row) => [row.id, row]))
  return (id: string): UserState => {
    const user = byId.get(id)
    if (!user) return 'user_exists'
    if (user.deleted) return 'user_is_not_soft_deleted'
    if (!user.active) return 'user_is_active'
    return 'ok'
  }
}
