// What other plugins do when a custom role is added or deleted (the UI rights plugin gives a new
// role the rights of `user`, and forgets a deleted role's), and who holds a role (the users
// plugin counts its accounts). They register at start and run inside the role change's
// transaction.
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { pluginState } from '../../api/plugin.ts'

export interface RoleHooks {
  created?: (em: EntityManager, role: { id: string }, actorId: string) => Promise<void>
  deleted?: (em: EntityManager, role: { id: string }) => Promise<void>
  /** How many live accounts hold each of these roles; a role somebody holds is not deleted. */
  holders?: (em: EntityManager, roleIds: readonly string[]) => Promise<Map<string, number>>
}

export const roleHooks = pluginState<RoleHooks[]>('roles.hooks')

/** Registers what a plugin does when roles come and go; call from the plugin's `init`. */
export const onRoleChange = (app: AppContext, hooks: RoleHooks) => {
  roleHooks.get(app).push(hooks)
}
