// Routes of the permissions plugin: who holds which permission on a resource.
import { z } from 'zod'
import { defineRoute } from '../../api/plugin.ts'
import { READ } from './levels.ts'
import { canAccess } from './policies.ts'
import { embedHolders, permissionsOfItems } from './render.ts'
import { permissionResponse } from './schemas.ts'

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/permissions/resource/{id}.json',
    action: 'PermissionsView.viewAcoPermissions',
    summary: 'The permissions on a resource',
    description:
      'Every permission on a resource the caller can read: users and groups, with their level (1 read, 7 update, 15 owner). `contain[user]`, `contain[user.profile]` and `contain[group]` embed the holders. 404 when the caller cannot read the resource.',
    auth: 'user',
    permission: canAccess({
      aco: 'Resource',
      param: 'id',
      level: READ,
      model: 'resource',
      forbidden: 'You are not allowed to access this resource.',
    }),
    params: z.object({ id: z.uuid({ error: 'The resource identifier should be a valid UUID.' }) }),
    query: {
      contain: {
        user: {},
        'user.profile': { requires: ['user'] },
        group: {},
      },
    },
    response: z.array(permissionResponse),
    handler: async ({ em, params, query, app }) => {
      const permissions = (await permissionsOfItems(em, [params.id])).get(params.id) ?? []
      await embedHolders(em, permissions, {
        users: query.contain['user.profile'] ? 'profile' : query.contain.user ? 'user' : undefined,
        groups: query.contain.group,
        appUrl: app.config.appUrl,
      })
      return permissions
    },
  }),
]
