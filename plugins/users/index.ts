// Users: accounts, profiles and OpenPGP keys.
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { definePlugin } from '../../api/plugin.ts'
import { onRoleChange } from '../roles/index.ts'
import {
  type AccountState,
  accountStates,
  createAccountStates,
  readAccountState,
} from './account-state.ts'
import { usersByRole } from './admins.ts'
import { keepUserLists } from './directory.ts'
import { GpgkeySchema } from './entities/Gpgkey.ts'
import { ProfileSchema } from './entities/Profile.ts'
import { UserSchema } from './entities/User.ts'
import { Migration20261127100200KeyDocuments } from './migrations/Migration20261127100200KeyDocuments.ts'
import { routes } from './routes.ts'

export { defaultAvatarUrls } from '../avatars/index.ts'
export type { AccountState } from './account-state.ts'
export { activeAdminUsernames, onlyAccountIsActiveAdmin } from './admins.ts'
export {
  type EmbeddedUser,
  embeddedUserContain,
  embeddedUserDocuments,
  embeddedUsers,
  gpgkeysOfUsers,
} from './batch.ts'
export { listUsers, viewUser } from './directory.ts'
export type { Gpgkey } from './entities/Gpgkey.ts'
export type { User } from './entities/User.ts'
export * from './extensions.ts'
export * from './gpgkey-json.ts'
export { embeddedUserJson, userJson as userResponse } from './schemas.ts'
export * from './service.ts'
export { isoDate, jsonDate } from './user-document.ts'
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
  dependsOn: ['roles'],
  // Profiles carry their avatar's addresses; without the avatars plugin nobody serves them.
  reads: ['avatars'],
  entities: [UserSchema, ProfileSchema, GpgkeySchema],
  migrations: [
    { name: 'Migration20261127100200KeyDocuments', class: Migration20261127100200KeyDocuments },
  ],
  routes,
  init: async (app) => {
    accountStates.set(app, createAccountStates(app))
    keepUserLists(app)
    onRoleChange(app, { holders: usersByRole })
  },
})
