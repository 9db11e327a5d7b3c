// Users: accounts, profiles and OpenPGP keys.
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { definePlugin } from '../../api/plugin.ts'
import {
  type AccountState,
  accountStates,
  createAccountStates,
  readAccountState,
} from './account-state.ts'
import { GpgkeySchema } from './entities/Gpgkey.ts'
import { ProfileSchema } from './entities/Profile.ts'
import { UserSchema } from './entities/User.ts'
import { routes } from './routes.ts'

export { defaultAvatarUrls } from '../avatars/index.ts'
export type { AccountState } from './account-state.ts'
export { type EmbeddedUser, embeddedUserContain, embeddedUsers, gpgkeysOfUsers } from './batch.ts'
export { listUsers, viewUser } from './directory.ts'
export type { Gpgkey } from './entities/Gpgkey.ts'
export type { User } from './entities/User.ts'
export * from './gpgkey-json.ts'
export { userJson as userResponse } from './schemas.ts'
export * from './service.ts'
export { GpgkeySchema, ProfileSchema, UserSchema }

/** The caller's account state and role, enough to authorise a request (kept up to date in memory). */
export const loadAuthUser = (
  app: AppContext,
  em: EntityManager,
  id: string,
): Promise<AccountState | undefined> =>
  accountStates.get(app).get(id, () => readAccountState(em, id))

export { forgetAccountState } from './account-state.ts'

export default definePlugin({
  name: 'users',
  dependsOn: ['roles', 'avatars'],
  entities: [UserSchema, ProfileSchema, GpgkeySchema],
  routes,
  init: async (app) => {
    accountStates.set(app, createAccountStates(app))
  },
})
