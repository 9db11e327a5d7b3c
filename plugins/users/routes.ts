// Routes of the users plugin (the full user directory comes with the users issue).
import { z } from 'zod'
import { notFound } from '../../api/errors.ts'
import { defineRoute } from '../../api/plugin.ts'
import { canSignIn, readUser, serializeUser } from './service.ts'

const userId = z.union(
  [z.literal('me'), z.uuid({ error: 'The user identifier should be a valid UUID or "me".' })],
  {
    error: 'The user identifier should be a valid UUID or "me".',
  },
)

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/users/{id}.json',
    action: 'UsersView.view',
    summary: 'A user, or the caller with "me"; viewing also keeps a cookie session alive',
    auth: 'user',
    params: z.object({ id: userId }),
    query: { contain: ['profile', 'role', 'gpgkey', 'groups_users', 'last_logged_in'] },
    handler: async ({ params, user, em, app }) => {
      const id = params.id === 'me' ? user!.id : params.id
      const bundle = await readUser(em, id)
      // Non-admins see active users only (fact sheet §8.2).
      if (
        !bundle ||
        bundle.user.deleted ||
        (user!.role !== 'admin' && !canSignIn(bundle.user) && bundle.user.id !== user!.id)
      )
        throw notFound('user')
      return serializeUser(bundle, app.config.appUrl)
    },
  }),
]
