// JWT: bearer sign-in for the mobile and desktop apps, the CLI and scripts. Its authenticator
// accepts `Authorization: Bearer <RS256 access token>`; such requests get no session or CSRF,
// and may not reach the cookie-session sign-in and sign-out routes.
import { isJwtRequest } from '../../api/auth/csrf.ts'
import { badRequest, messages } from '../../api/errors.ts'
import { definePlugin } from '../../api/plugin.ts'
import { canSignIn, loadAuthUser } from '../users/index.ts'
import { jwtKeys, loadJwtKeys } from './keys.ts'
import { routes } from './routes.ts'
import { sha256, verifyAccessToken } from './service.ts'

/** Cookie-session routes a JWT request is refused, by the route passbolt names in its answer. */
const SESSION_ONLY_ROUTES = ['/auth/login', '/auth/logout']

export default definePlugin({
  name: 'jwt',
  dependsOn: ['users', 'auth'],
  routes,
  init: async (app) => {
    jwtKeys.set(app, await loadJwtKeys(app))
  },
  settings: () => ({
    public: { jwtAuthentication: { enabled: true } },
    user: { jwtAuthentication: { enabled: true, version: '3.3.0' } },
  }),
  middleware: () => async (request, next) => {
    if (isJwtRequest(request)) {
      const route = request.path.replace(/\.json$/, '')
      if (SESSION_ONLY_ROUTES.includes(route)) throw badRequest(messages.jwtRouteRefused(route))
    }
    await next()
  },
  authenticate: async (request, app) => {
    const header = request.headers.authorization
    if (typeof header !== 'string' || !header.startsWith('Bearer ')) return undefined
    const token = header.slice('Bearer '.length).trim()
    const tokenHash = sha256(token)
    const userId = await verifyAccessToken(app, token, tokenHash)
    if (!userId) return undefined
    const found = await loadAuthUser(app, request.em, userId)
    if (!found || !canSignIn(found.user)) return undefined
    return {
      id: userId,
      username: found.user.username,
      role: found.role,
      via: 'jwt',
      signInId: tokenHash,
    }
  },
})
