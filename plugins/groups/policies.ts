// Who may change a group: administrators and the group's managers. The group's row is locked
// first (when asked), so that concurrent changes of one group run one after the other.
import { lockRows } from '../../api/db/transaction.ts'
import { badRequest, HttpError } from '../../api/errors.ts'
import { selectRows } from '../../api/orm.ts'
import type { AccessPolicy } from '../../api/plugin.ts'
import { isUuid } from '../../api/uuid.ts'
import { messages } from './messages.ts'

/** What the handler learns about the caller and the group. */
export interface GroupGrant {
  isAdmin: boolean
  isManager: boolean
}

const notFound = (message: string) => new HttpError(404, message)

/**
 * Administrators or managers of the live group named by `{id}`. passbolt's update answers 404
 * for a missing group before 403; its delete refuses a non-manager first (`refuseFirst`).
 */
export const adminOrManager = (options: {
  invalid: string
  missing: string
  refuseFirst?: boolean
  lock?: boolean
}): AccessPolicy<GroupGrant, { id: string }> => ({
  description: 'an administrator or a manager of the group',
  refusals: [403, 404],
  refusalMessages: { 403: messages.notAllowed, 404: options.missing },
  check: async ({ user, params, em }) => {
    if (!isUuid(params.id)) throw badRequest(options.invalid)
    const isAdmin = user.role === 'admin'
    if (options.lock) await lockRows(em, 'groups', [params.id])
    const [group] = await selectRows<{ deleted: boolean }>(em, (knex) =>
      knex('groups').where('id', params.id).select('deleted'),
    )
    const [membership] = await selectRows<{ is_admin: boolean }>(em, (knex) =>
      knex('groups_users').where({ group_id: params.id, user_id: user.id }).select('is_admin'),
    )
    const isManager = membership?.is_admin === true
    if (options.refuseFirst && !isAdmin && !isManager) throw new HttpError(403, messages.notAllowed)
    if (!group || group.deleted) throw notFound(options.missing)
    if (!isAdmin && !isManager) throw new HttpError(403, messages.notAllowed)
    return { isAdmin, isManager }
  },
})
