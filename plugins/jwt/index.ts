// JWT: bearer sign-in for the mobile and desktop apps, the CLI and scripts. Its authenticator
// accepts `Authorization: Bearer <RS256 access token>`; such requests get no session or CSRF.
import { definePlugin } from '../../api/plugin.ts'
import { canSignIn, loadAuthUser } from '../users/index.ts'
import { loadJwtKeys } from './keys.ts'
import { routes } from './routes.ts'
import { sha256, verifyAccessToken } from './service.ts'

export default definePlugin({
  name: 'jwt',
  dependsOn: ['users', 'auth'],
  routes,
  init: async (app) => {
    app.pluginState.set('jwt', await loadJwtKeys(app))
  },
  settings: () => ({
    public: { jwtAuthentication: { enabled: true } },
    user: { jwtAuthentication: { enabled: true, version: '3.3.0' } },
  }),
  authenticate: async (request, app) => {
    const header = request.headers.authorization
    if (typeof header !== 'string' || !header.startsWith('Bearer ')) return undefined
    const token = header.slice('Bearer '.length).trim()
    const userId = await verifyAccessToken(app, token)
    if (!userId) return undefined
    const found = await loadAuthUser(app.orm.em.fork(), userId)
    if (!found || !canSignIn(found.user)) return undefined
    return {
      id: userId,
      username: found.user.username,
      role: found.role,
      via: 'jwt',
      signInId: sha256(token),
    }
  },
})
