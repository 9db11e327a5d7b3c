// The user directory's `has-access` filter: the users who can read a resource, directly or
// through a live group. Only someone who can read the resource may ask, as passbolt checks.
import { badRequest, forbidden } from '../../api/errors.ts'
import { selectRows } from '../../api/orm.ts'
import type { UserDirectoryHooks } from '../users/index.ts'
import { usersWithAccessQuery } from './access.ts'

export const userDirectoryFilters: UserDirectoryHooks['filters'] = {
  'has-access': async ({ query, knex, value, user, em }) => {
    const ids = value as string[]
    if (ids.length === 0) return
    if (ids.length > 1) throw badRequest('Multiple has-access filters are not supported.')
    const [resourceId] = ids
    const callerReads = await selectRows<{ user_id: string }>(em, (k) =>
      k
        .from(usersWithAccessQuery(k, 'Resource', resourceId).as('readers'))
        .where('readers.user_id', user.id)
        .select('readers.user_id'),
    )
    if (callerReads.length === 0) throw forbidden('This operation is not allowed for this user.')
    query.whereIn('users.id', usersWithAccessQuery(knex, 'Resource', resourceId))
  },
}
