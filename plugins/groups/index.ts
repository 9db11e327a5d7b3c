// Groups: users gathered to share with at once, managed by some of their members. Adding a
// member gives them the group's passwords (with the secrets the client encrypts for them);
// removing one takes them away.
import { definePlugin } from '../../api/plugin.ts'
import { userDeletion } from '../users/index.ts'
import { groupDeletion } from './deletion.ts'
import { GroupSchema } from './entities/Group.ts'
import { GroupUserSchema } from './entities/GroupUser.ts'
import { Migration20261127010000GroupViews } from './migrations/Migration20261127010000GroupViews.ts'
import { routes } from './routes.ts'

export { type GroupContain, type GroupJson, selectGroups } from './query.ts'
export { GroupSchema, GroupUserSchema }

// Listed before the resources, folders and tags (plugins/index.ts), so that its deletion cleanup
// runs after theirs: they read a deleted subject's memberships, which this cleanup removes.
export default definePlugin({
  name: 'groups',
  dependsOn: ['users', 'permissions', 'secrets'],
  entities: [GroupSchema, GroupUserSchema],
  // Memberships and group rows, for the plugins that compute access below this one.
  views: ['group_members', 'group_records'],
  migrations: [
    { name: 'Migration20261127010000GroupViews', class: Migration20261127010000GroupViews },
  ],
  routes,
  extensions: [userDeletion.provide(groupDeletion)],
})
