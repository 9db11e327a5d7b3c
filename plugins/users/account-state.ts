// The caller's account state (active, deleted, disabled, role), which every signed-in request
// re-checks: read with one statement, and kept in memory until the change feed announces a
// change to the user's row (or goes down, when nothing is kept).
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { FeedCache } from '../../api/db/change-feed.ts'
import { preparedQuery } from '../../api/db/prepared.ts'
import { toDate } from '../../api/orm.ts'
import { pluginState } from '../../api/plugin.ts'

export interface AccountState {
  user: {
    id: string
    username: string
    active: boolean
    deleted: boolean
    disabled: Date | null
  }
  role: 'admin' | 'user' | 'guest'
}

const selectAccountState = preparedQuery<{
  id: string
  username: string
  active: boolean
  deleted: boolean
  disabled: string | null
  role: string
}>(1, (knex, id) =>
  knex('users')
    .join('roles', 'roles.id', 'users.role_id')
    .where('users.id', id)
    .limit(1)
    .select(
      'users.id',
      'users.username',
      'users.active',
      'users.deleted',
      'users.disabled',
      'roles.name as role',
    ),
)

export const readAccountState = async (
  em: EntityManager,
  id: string,
): Promise<AccountState | undefined> => {
  const [row] = await selectAccountState(em, id)
  if (!row) return undefined
  const { role, ...user } = row
  return { user: { ...user, disabled: toDate(user.disabled) }, role: role as AccountState['role'] }
}

export const createAccountStates = (app: AppContext) =>
  new FeedCache<AccountState | undefined>(app.changes, 'users', 'row')

export const accountStates =
  pluginState<ReturnType<typeof createAccountStates>>('users.accountStates')

/** Drops what this process keeps of a user it just changed, before the change is announced. */
export const forgetAccountState = (app: AppContext, id: string) => accountStates.get(app).forget(id)
