// Routes of the JWT plugin: the signing key (PEM and JWKS), login, refresh and logout.
import { z } from 'zod'
import { assertCsrfToken } from '../../api/auth/csrf.ts'
import { HttpError } from '../../api/errors.ts'
import { defineRoute, Reply, type RequestContext } from '../../api/plugin.ts'
import { noBody } from '../../api/response-schemas.ts'
import { isUuid } from '../../api/uuid.ts'
import { jwtKeys } from './keys.ts'
import { messages } from './messages.ts'
import { login, logout, refresh } from './service.ts'

const REFRESH_COOKIE = 'refresh_token'
const MONTH_MS = 30 * 24 * 3_600_000

const setRefreshCookie = (request: RequestContext, value: string | null) =>
  request.cookies.set(REFRESH_COOKIE, value, {
    httpOnly: true,
    secure: request.secure,
    sameSite: 'lax',
    path: '/',
    ...(value ? { expires: new Date(Date.now() + MONTH_MS) } : {}),
    overwrite: true,
  })

/** RFC 7517: the RS256 public key that signs access tokens. */
const jwksResponse = z.object({
  keys: z.array(
    z.object({
      kty: z.literal('RSA'),
      alg: z.literal('RS256'),
      use: z.literal('sig'),
      e: z.string(),
      n: z.string(),
    }),
  ),
})

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/auth/jwt/rsa.json',
    action: 'JwtRsa.rsa',
    summary: 'The public key (PEM) that signs access tokens',
    description:
      'The RS256 public key, in PEM, that verifies access tokens issued by `/auth/jwt/login.json` and `/auth/jwt/refresh.json`.',
    auth: 'public',
    // The challenge or refresh token proves who; logout spends only the caller's own tokens.
    permission: 'none',
    response: z.object({ keydata: z.string() }),
    handler: ({ app }) => ({ keydata: jwtKeys.get(app).publicPem }),
  }),
  defineRoute({
    method: 'GET',
    path: '/auth/jwt/jwks.json',
    action: 'JwtJwks.jwks',
    summary: 'The access-token signing key as a JSON Web Key Set (not enveloped)',
    description:
      'The same key as `/auth/jwt/rsa.json` as a JSON Web Key Set, answered as a bare JSON document (no envelope) for JWT libraries.',
    auth: 'public',
    // The challenge or refresh token proves who; logout spends only the caller's own tokens.
    permission: 'none',
    response: jwksResponse,
    handler: ({ app }) => new Reply({ keys: [jwtKeys.get(app).jwk] }, { raw: true }),
  }),
  defineRoute({
    method: 'POST',
    path: '/auth/jwt/login.json',
    action: 'JwtLogin.loginPost',
    summary: 'Sign in with a challenge signed by the user and encrypted to the server key',
    description:
      "The client signs a JSON challenge (its domain, a verify token, an expiry) with its key and encrypts it to the server key. The answer is the server's reply, encrypted to the user's key: an access token valid 5 minutes, a single-use refresh token, and the verify token sent back. Refused with 400 when the challenge does not verify or has expired.",
    auth: 'public',
    // The challenge or refresh token proves who; logout spends only the caller's own tokens.
    permission: 'none',
    csrf: false,
    body: z.object({
      user_id: z.string().max(64).optional(),
      challenge: z.string().max(100_000).optional(),
    }),
    throttle: { account: ({ body }) => body.user_id },
    message: messages.success,
    response: z.object({
      challenge: z.string().meta({
        description:
          'The server’s reply, an OpenPGP message encrypted to the user’s key: `{domain, verify_token, access_token, refresh_token, ...}`.',
      }),
    }),
    handler: async ({ body, em, app }) => {
      if (!body.user_id || !body.challenge) throw new HttpError(400, messages.credentialsMissing)
      if (!isUuid(body.user_id)) throw new HttpError(400, messages.credentialsInvalid)
      return login(em, app, body.user_id.toLowerCase(), body.challenge)
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/auth/jwt/refresh.json',
    action: 'JwtRefresh.refreshPost',
    summary:
      'Trade a refresh token (body or cookie) for a new access token; the refresh token rotates',
    description:
      'Gives a new 5-minute access token for a valid refresh token; the refresh token is spent and a new one returned. Sending a spent refresh token again signs the user out everywhere (every refresh token is revoked).',
    auth: 'public',
    // The challenge or refresh token proves who; logout spends only the caller's own tokens.
    permission: 'none',
    csrf: false,
    body: z.object({
      user_id: z.string().max(64).optional(),
      refresh_token: z.string().max(64).optional(),
    }),
    throttle: { account: ({ body }) => body.user_id },
    response: z.object({ access_token: z.string() }),
    handler: async ({ body, em, app, request }) => {
      const fromBody = body.refresh_token !== undefined || body.user_id !== undefined
      const value = fromBody ? body.refresh_token : request.cookies.get(REFRESH_COOKIE)
      if (!value) throw new HttpError(400, messages.noRefreshToken)
      if (!fromBody) {
        // A browser-held cookie is sent automatically, so it needs the CSRF double submit.
        assertCsrfToken(request, request.headers['x-csrf-token'])
      }
      const { accessToken, refreshToken } = await refresh(em, app, value, body.user_id)
      setRefreshCookie(request, refreshToken)
      return { access_token: accessToken }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/auth/jwt/logout.json',
    action: 'JwtLogout.logoutPost',
    summary: 'Spend one refresh token, or all of the user’s when none is given',
    description:
      'Revokes the refresh token given, or every refresh token of the caller; access tokens already issued run until they expire (5 minutes).',
    auth: 'user',
    // The challenge or refresh token proves who; logout spends only the caller's own tokens.
    permission: 'none',
    csrf: false,
    body: z.object({ refresh_token: z.string().max(64).optional() }),
    response: noBody,
    handler: async ({ body, em, user, request }) => {
      if (user?.via !== 'jwt') throw new HttpError(401, 'Authentication is required to continue')
      await logout(em, user.id, body.refresh_token ?? request.cookies.get(REFRESH_COOKIE))
      setRefreshCookie(request, null)
      return null
    },
  }),
]
