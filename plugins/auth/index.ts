// Auth: GPGAuth cookie sessions. Its middleware puts the GPGAuth headers on every non-JWT
// answer, issues the CSRF cookie and loads the session; its authenticator turns a live
// session into the caller, re-checking the user each time.
import type { AppContext } from '../../api/app.ts'
import { isJwtRequest, issueCsrfCookie } from '../../api/auth/csrf.ts'
import { definePlugin, type RequestContext } from '../../api/plugin.ts'
import { canSignIn, loadAuthUser } from '../users/index.ts'
import { AuthenticationTokenSchema } from './entities/AuthenticationToken.ts'
import { type Session, SessionSchema } from './entities/Session.ts'
import { BASE_HEADERS } from './gpgauth.ts'
import { messages } from './messages.ts'
import { purgeExpired } from './purge.ts'
import { routes } from './routes.ts'
import { endSession, loadSession, touchSession } from './sessions.ts'

export { AuthenticationTokenSchema } from './entities/AuthenticationToken.ts'
export { endSession, endUserSessions } from './sessions.ts'
export {
  boundActiveTokens,
  claimToken,
  consumeToken,
  createToken,
  findActiveToken,
  isExpired,
  purgeExpiredTokens,
  TOKEN_LIFETIME_MS,
} from './tokens.ts'

const isLiveSessionUser = async (
  app: AppContext,
  em: RequestContext['em'],
  session: Session | undefined,
) => {
  if (!session?.userId) return false
  const found = await loadAuthUser(app, em, session.userId)
  return Boolean(found && canSignIn(found.user))
}

export default definePlugin({
  name: 'auth',
  dependsOn: ['users'],
  entities: [AuthenticationTokenSchema, SessionSchema],
  routes,
  jobs: [purgeExpired],
  middleware: (app) => async (request, next) => {
    if (isJwtRequest(request)) return next()
    for (const [name, value] of Object.entries(BASE_HEADERS)) request.set(name, value)
    request.state.csrfToken = issueCsrfCookie(request)
    const { em } = request
    const session = await loadSession(em, request, app.config.sessionTimeout)
    if (!session) await endSession(em, request, undefined)
    request.state.session = session
    try {
      await next()
    } finally {
      if (!request.responseHeader('X-GPGAuth-Authenticated')) {
        // No route ran (an unknown path answers 404): a signed-in caller is still told so.
        const signedIn =
          'user' in request.state
            ? Boolean(request.state.user)
            : await isLiveSessionUser(app, em, request.state.session as Session | undefined)
        request.set('X-GPGAuth-Authenticated', String(signedIn))
        if (!signedIn) {
          request.set('X-GPGAuth-Progress', 'stage0')
          request.set('X-GPGAuth-Error', 'true')
          request.set('X-GPGAuth-Debug', messages.noUser(messages.noKeyId))
        }
      }
      const live = request.state.session as Session | undefined
      if (live && request.state.user && !request.state.keepSessionIdle) await touchSession(em, live)
    }
  },
  authenticate: async (request, app) => {
    const session = request.state.session as Session | undefined
    if (isJwtRequest(request) || !session?.userId) return undefined
    const { em } = request
    const found = await loadAuthUser(app, em, session.userId)
    if (!found || !canSignIn(found.user)) {
      // The account was disabled or deleted since login: the session ends now.
      await endSession(em, request, session)
      request.state.session = undefined
      return undefined
    }
    return {
      id: found.user.id,
      username: found.user.username,
      role: found.role,
      via: 'session',
      signInId: session.id,
    }
  },
})
