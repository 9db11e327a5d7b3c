// Roles: the built-in roles users are given, and the custom roles administrators add.
import { definePlugin } from '../../api/plugin.ts'
import { RoleSchema } from './entities/Role.ts'
import { roleHooks } from './hooks.ts'
import { Migration20261126130100CustomRoles } from './migrations/Migration20261126130100CustomRoles.ts'
import { routes } from './routes.ts'

export { RoleSchema } from './entities/Role.ts'
export { onRoleChange, type RoleHooks } from './hooks.ts'
export { countRoles, roleSummaries } from './service.ts'

export default definePlugin({
  name: 'roles',
  entities: [RoleSchema],
  migrations: [
    { name: 'Migration20261126130100CustomRoles', class: Migration20261126130100CustomRoles },
  ],
  routes,
  init: async (app) => {
    roleHooks.set(app, [])
  },
})
