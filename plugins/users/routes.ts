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

/** What a user answer may carry; all of it comes from the user's own query. */
const userContain = {
  profile: { default: true },
  gpgkey: { default: true },
  role: { default: true },
  groups_users: { default: true },
  last_logged_in: {},
}

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/users/{id}.json',
    action: 'UsersView.view',
    summary: 'A user, or the caller with "me"; viewing also keeps a cookie session alive',
    auth: 'user',
    // Visibility (active users for non-administrators) is applied by the query.
    permission: 'none',
    params: z.object({ id: userId }),
    query: { contain: userContain },
    handler: async ({ params, user, em, app, query }) => {
      const id = params.id === 'me' ? user!.id : params.id
      const bundle = await readUser(em, id, { memberships: query.contain.groups_users })
      // Non-admins see active users only.
      if (
        !bundle ||
        bundle.user.deleted ||
        (user!.role !== 'admin' && !canSignIn(bundle.user) && bundle.user.id !== user!.id)
      )
        throw notFound('user')
      return serializeUser(bundle, app.config.appUrl, query.contain)
    },
  }),
]
