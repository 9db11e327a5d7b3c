// Routes of the roles plugin.
import { z } from 'zod'
import { defineRoute } from '../../api/plugin.ts'
import { roleSchema } from './schemas.ts'
import { listRoles } from './service.ts'

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/roles.json',
    action: 'RolesIndex.index',
    summary: 'List the roles',
    description:
      'The roles a user can have (`admin`, `user`, `guest`), the same for every caller. Users carry a `role_id` from this list.',
    auth: 'user',
    // The built-in roles are the same for everyone.
    permission: 'none',
    response: z.array(roleSchema),
    handler: ({ em }) => listRoles(em),
  }),
]
