// MFA: TOTP and Yubikey second factors for cookie and JWT sign-ins. Its guard sends every
// signed-in request that owes a second factor to /mfa/verify/error.json (JSON) or the verify
// form (HTML); JWT sign-ins learn the pending factors from it.
import { HttpError } from '../../api/errors.ts'
import { definePlugin } from '../../api/plugin.ts'
import { userDirectory } from '../users/index.ts'
import { messages } from './messages.ts'
import { routes } from './routes.ts'
import {
  cachedOrganizationMfa,
  hasValidProof,
  initOrganizationMfaCache,
  userProviders,
  usersWithMfa,
} from './service.ts'

/** Paths reachable while a second factor is owed: signing in and out, and verifying. */
const OPEN_PATHS = [
  '/auth/login',
  '/auth/jwt/login',
  '/mfa/verify',
  '/auth/logout',
  '/auth/jwt/logout',
  '/logout',
]

export default definePlugin({
  name: 'mfa',
  dependsOn: ['settings', 'users', 'auth'],
  routes,
  settings: () => ({ user: { multiFactorAuthentication: { enabled: true, version: '1.1.0' } } }),
  pendingSecondFactors: (em, userId) => userProviders(em, userId),
  extensions: [
    userDirectory.provide({
      contains: {
        is_mfa_enabled: async (rows, { app, em }) => {
          const enabled = await usersWithMfa(
            app,
            em,
            rows.map((row) => row.id),
          )
          for (const row of rows) row.is_mfa_enabled = enabled.has(row.id)
        },
      },
    }),
  ],
  init: async (app) => initOrganizationMfaCache(app),
  guard: async ({ user, request }, app) => {
    if (OPEN_PATHS.some((path) => request.path.startsWith(path))) return
    const { em } = request
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
