// UI rights (RBAC): which parts of the clients' interface each role may use, which the server
// also enforces on the routes behind them.
import { HttpError } from '../../api/errors.ts'
import { definePlugin } from '../../api/plugin.ts'
import { onRoleChange } from '../roles/index.ts'
import { RbacSchema } from './entities/Rbac.ts'
import { UiActionSchema } from './entities/UiAction.ts'
import { messages } from './messages.ts'
import { Migration20261126130200Rbacs } from './migrations/Migration20261126130200Rbacs.ts'
import { routes } from './routes.ts'
import { copyUserRights, forgetRights, isDenied } from './service.ts'
import { uiActionOfRoute } from './ui-actions.ts'

export { UI_ACTIONS } from './ui-actions.ts'

export default definePlugin({
  name: 'rbacs',
  dependsOn: ['roles'],
  entities: [RbacSchema, UiActionSchema],
  migrations: [{ name: 'Migration20261126130200Rbacs', class: Migration20261126130200Rbacs }],
  routes,
  settings: () => ({ user: { rbacs: { version: '1.0.0' } } }),
  init: async (app) => {
    onRoleChange(app, {
      created: (em, role, actorId) => copyUserRights(em, role.id, actorId),
      deleted: async (em, role) => {
        await forgetRights(em, role.id)
      },
    })
  },
  // A denied part of the interface is closed on the server too; only its routes pay the lookup.
  guard: async ({ user, request, route }) => {
    if (user.role === 'admin') return
    const uiAction = uiActionOfRoute(route.method, route.path)
    if (uiAction && (await isDenied(request.em, user.role, uiAction)))
      throw new HttpError(403, messages.denied)
  },
})
