// Users: accounts, profiles and OpenPGP keys.
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { definePlugin, pluginState } from '../../api/plugin.ts'
import { type AccountState, createAccountStates, readAccountState } from './account-state.ts'
import { GpgkeySchema } from './entities/Gpgkey.ts'
import { ProfileSchema } from './entities/Profile.ts'
import { UserSchema } from './entities/User.ts'
import { routes } from './routes.ts'

export type { AccountState } from './account-state.ts'
export { defaultAvatarUrls, type EmbeddedUser, embeddedUsers, gpgkeysOfUsers } from './batch.ts'
export type { Gpgkey } from './entities/Gpgkey.ts'
export type { User } from './entities/User.ts'
export * from './service.ts'
export { GpgkeySchema, ProfileSchema, UserSchema }

const accountStates = pluginState<ReturnType<typeof createAccountStates>>('users.accountStates')

/** The caller's account state and role, enough to authorise a request (kept up to date in memory). */
export const loadAuthUser = (
  app: AppContext,
  em: EntityManager,
  id: string,
): Promise<AccountState | undefined> =>
  accountStates.get(app).get(id, () => readAccountState(em, id))

/** Drops what this process keeps of a user it just changed, before the change is announced. */
export const forgetAccountState = (app: AppContext, id: string) => accountStates.get(app).forget(id)

export default definePlugin({
  name: 'users',
  dependsOn: ['roles'],
  entities: [UserSchema, ProfileSchema, GpgkeySchema],
  routes,
  init: async (app) => {
    accountStates.set(app, createAccountStates(app))
  },
})
