// Access policies routes declare: "the caller has at least <level> on the <item> named by a path
// parameter". The check runs before the handler, inside the route's transaction when it has one.
import { lockRows } from '../../api/db/transaction.ts'
import { messages, notFound } from '../../api/errors.ts'
import type { AccessPolicy } from '../../api/plugin.ts'
import { type Aco, type Level, OWNER, READ, UPDATE } from './levels.ts'
import { type AccessRefusal, requireAccess } from './service.ts'

const LEVEL_NAMES: Record<Level, string> = { [READ]: 'read', [UPDATE]: 'update', [OWNER]: 'owner' }

export interface CanAccessOptions extends AccessRefusal {
  aco: Aco
  /** The path parameter holding the item's id. */
  param: string
  level: Level
  /**
   * Lock the item's row in this table first (`SELECT … FOR UPDATE`), so that concurrent
   * changes to the item wait for each other; needs `transaction: true` on the route.
   */
  lock?: string
}

/** What the handler learns: the caller's level on the item. */
export interface Granted {
  permission: number
}

export const canAccess = (
  options: CanAccessOptions,
): AccessPolicy<Granted, Record<string, string>> => ({
  description: `at least ${LEVEL_NAMES[options.level]} permission on the ${options.model}`,
  refusals: options.level === READ ? [404] : [403, 404],
  refusalMessages: { 403: options.forbidden, 404: messages.modelNotFound(options.model) },
  check: async ({ user, params, em }) => {
    const id = params[options.param]
    if (options.lock && !(await lockRows(em, options.lock, [id])).has(id))
      throw notFound(options.model)
    const permission = await requireAccess(em, user.id, options.aco, id, options.level, options)
    return { permission }
  },
})
