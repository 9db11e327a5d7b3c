// MFA: TOTP and Yubikey second factors for cookie and JWT sign-ins. Its guard sends every
// signed-in request that owes a second factor to /mfa/verify/error.json (JSON) or the verify
// form (HTML).
import { HttpError } from '../../api/errors.ts'
import { definePlugin } from '../../api/plugin.ts'
import { messages } from './messages.ts'
import { routes } from './routes.ts'
import { cachedOrganizationMfa, hasValidProof, userProviders } from './service.ts'

/** Paths reachable while a second factor is owed (fact sheet §6.1). */
const OPEN_PATHS = [
  '/auth/login',
  '/auth/jwt/login',
  '/mfa/verify',
  '/auth/logout',
  '/auth/jwt/logout',
  '/logout',
]

export { userProviders } from './service.ts'

export default definePlugin({
  name: 'mfa',
  dependsOn: ['settings', 'users', 'auth'],
  routes,
  settings: () => ({ user: { multiFactorAuthentication: { enabled: true, version: '1.1.0' } } }),
  guard: async ({ user, request }, app) => {
    if (OPEN_PATHS.some((path) => request.path.startsWith(path))) return
    const em = app.orm.em.fork()
    const providers = await userProviders(em, user.id, await cachedOrganizationMfa(app, em))
    if (providers.length === 0 || (await hasValidProof(em, request, user))) return
    if (request.path.endsWith('.json'))
      throw new HttpError(302, messages.required, '', {
        Location: `${app.config.appUrl}mfa/verify/error.json`,
      })
    throw new HttpError(302, messages.required, '', {
      Location: `/mfa/verify/${providers[0]}?redirect=${encodeURIComponent(request.path)}`,
    })
  },
})
