// Routes of the auth plugin: the server key, GPGAuth stages 0-2, the session probe, logout and
// the CSRF token.
import * as openpgp from 'openpgp'
import { z } from 'zod'
import { HttpError } from '../../api/errors.ts'
import { defineRoute, Reply } from '../../api/plugin.ts'
import { noBody } from '../../api/response-schemas.ts'
import {
  attachGroupsUsers,
  canSignIn,
  findUserByFingerprint,
  serializeUser,
  touchLastLoggedIn,
  type UserBundle,
  userResponse,
} from '../users/index.ts'
import type { Session } from './entities/Session.ts'
import {
  decryptForServer,
  encodeUserAuthToken,
  encryptForUser,
  formatToken,
  tokenUuid,
} from './gpgauth.ts'
import { messages } from './messages.ts'
import { endSession, openSession } from './sessions.ts'
import { boundActiveTokens, consumeToken, createToken, findActiveToken } from './tokens.ts'

const gpgAuthFields = z.object({
  keyid: z.string().max(64).optional(),
  server_verify_token: z.string().max(100_000).optional(),
  user_token_result: z.string().max(200).optional(),
})

/** `data[gpg_auth][...]` as the extension sends it, or a bare `gpg_auth`. */
const loginBody = z.object({
  data: z.object({ gpg_auth: gpgAuthFields.optional() }).optional(),
  gpg_auth: gpgAuthFields.optional(),
})

const fieldsOf = (body: z.output<typeof loginBody>) => body.data?.gpg_auth ?? body.gpg_auth ?? {}

const failure = (status: number, message: string, progress?: string) =>
  new HttpError(status, message, '', {
    'X-GPGAuth-Authenticated': 'false',
    'X-GPGAuth-Error': 'true',
    'X-GPGAuth-Debug': message,
    ...(progress ? { 'X-GPGAuth-Progress': progress } : {}),
  })

/** Finds the active user behind a key fingerprint, or answers GPGAuth's 400. */
const identify = async (
  em: Parameters<typeof findUserByFingerprint>[0],
  keyid: string | undefined,
): Promise<UserBundle> => {
  if (!keyid) throw failure(400, messages.noUser(messages.noKeyId))
  if (!/^[0-9A-Fa-f]{40}$/.test(keyid))
    throw failure(400, messages.noUser(messages.invalidFingerprint))
  const bundle = await findUserByFingerprint(em, keyid)
  if (!bundle?.gpgkey || !canSignIn(bundle.user))
    throw failure(400, messages.noUser(messages.userNotFound))
  return bundle
}

/**
 * Stage 1 costs the server an OpenPGP encryption and a token for anyone who names a (public)
 * key: it is counted whether or not it succeeds, per account and per address.
 */
export const LOGIN_CHALLENGES_PER_ACCOUNT = 10
/** Above twice the per-account limit (fixed windows allow a burst at a boundary). */
export const MAX_ACTIVE_LOGIN_TOKENS = 2 * LOGIN_CHALLENGES_PER_ACCOUNT + 5

const stageReply = (progress: string, headers: Record<string, string>) =>
  new Reply(null, {
    message: messages.authFailed,
    outcome: 'error',
    headers: { 'X-GPGAuth-Authenticated': 'false', 'X-GPGAuth-Progress': progress, ...headers },
  })

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/auth/verify.json',
    action: 'AuthVerify.verifyGet',
    summary: "The server's OpenPGP public key",
    description:
      'The armored public key and fingerprint a client checks before signing in with GPGAuth, and encrypts its stage 0 nonce and JWT challenges to.',
    auth: 'public',
    // Sign-in and session routes act on the caller's own session; the key or token proves who.
    permission: 'none',
    response: z.object({
      fingerprint: z
        .string()
        .regex(/^[0-9A-F]{40}$/)
        .meta({ examples: ['0C1D1761110D1E33C9006D1A5B1B332ED06426D3'] }),
      keydata: z.string(),
    }),
    handler: ({ app }) => ({
      fingerprint: app.serverKey.fingerprint,
      keydata: app.serverKey.armoredPublicKey,
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/auth/verify.json',
    action: 'AuthLogin.loginPost',
    summary: 'GPGAuth stage 0: the server decrypts the client nonce to prove it holds its key',
    description:
      "The client sends a nonce encrypted to the server key (`gpg_auth[server_verify_token]`); the server answers it decrypted in the `X-GPGAuth-Verify-Response` header, which proves it holds the private key. The answer's `X-GPGAuth-*` headers carry the outcome.",
    auth: 'public',
    // Sign-in and session routes act on the caller's own session; the key or token proves who.
    permission: 'none',
    csrf: false,
    multipart: true,
    body: loginBody,
    throttle: { account: ({ body }) => fieldsOf(body).keyid },
    response: noBody,
    handler: async ({ body, em, app }) => {
      const fields = fieldsOf(body)
      await identify(em, fields.keyid)
      if (!fields.server_verify_token) throw failure(400, messages.badVerifyToken, 'stage0')
      const plain = await decryptForServer(fields.server_verify_token, app.serverKey.privateKey)
      if (plain === undefined) throw failure(400, messages.badVerifyToken, 'stage0')
      // A badly formed nonce gets no verify response, so nothing unchecked reaches a header.
      if (!tokenUuid(plain)) return stageReply('stage0', { 'X-GPGAuth-Error': 'true' })
      return stageReply('stage0', { 'X-GPGAuth-Verify-Response': plain })
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/auth/login.json',
    action: 'AuthLogin.loginPost',
    summary:
      'GPGAuth stage 1 (keyid: get an encrypted challenge) and stage 2 (user_token_result: sign in)',
    description:
      'Stage 1: the client sends its key fingerprint (`gpg_auth[keyid]`) and gets a token encrypted to its key in `X-GPGAuth-User-Auth-Token`. Stage 2: it sends the token decrypted (`gpg_auth[user_token_result]`) and the session opens: the `passbolt_session` cookie is set. Failures answer 200 with `X-GPGAuth-Error` and an error header status, as passbolt does. Stage 1 is counted whether or not it succeeds: 10 a minute per key fingerprint and `KEYWARD_AUTH_RATE_LIMIT_PER_ADDRESS` per client address (429 beyond); stage 2 finds its token by value, however many were issued since.',
    auth: 'public',
    // Sign-in and session routes act on the caller's own session; the key or token proves who.
    permission: 'none',
    csrf: false,
    multipart: true,
    body: loginBody,
    throttle: { account: ({ body }) => fieldsOf(body).keyid },
    response: userResponse.nullable().meta({
      description: 'Null at stage 1 (the token travels in headers); the signed-in user at stage 2.',
    }),
    handler: async ({ body, em, app, user, request }) => {
      if (user) throw new HttpError(409, messages.alreadyLoggedIn)
      const fields = fieldsOf(body)
      if (fields.user_token_result === undefined)
        await app.throttle.hit([
          { key: `login-challenge|ip|${request.ip}`, limit: app.config.authRateLimitPerAddress },
          ...(fields.keyid
            ? [
                {
                  key: `login-challenge|account|${fields.keyid.toLowerCase()}`,
                  limit: LOGIN_CHALLENGES_PER_ACCOUNT,
                },
              ]
            : []),
        ])
      const bundle = await identify(em, fields.keyid)
      if (fields.user_token_result === undefined) {
        const token = createToken(em, 'login', bundle.user.id)
        await em.flush()
        await boundActiveTokens(em, 'login', bundle.user.id, MAX_ACTIVE_LOGIN_TOKENS)
        const userKey = await openpgp.readKey({ armoredKey: bundle.gpgkey!.armoredKey })
        const challenge = await encryptForUser(
          formatToken(token.token),
          userKey,
          app.serverKey.privateKey,
        )
        return stageReply('stage1', { 'X-GPGAuth-User-Auth-Token': encodeUserAuthToken(challenge) })
      }
      const uuid = tokenUuid(fields.user_token_result)
      const token = uuid && (await findActiveToken(em, 'login', bundle.user.id, uuid))
      if (!token || !(await consumeToken(em, token)))
        throw failure(400, messages.authFailed, 'stage2')
      await openSession(em, request, bundle.user.id, request.state.session as Session | undefined)
      await touchLastLoggedIn(em, bundle.user.id)
      bundle.user.lastLoggedIn = new Date()
      const signedIn = serializeUser(bundle, app.config.appUrl)
      await attachGroupsUsers([signedIn], em)
      return new Reply(signedIn, {
        message: messages.loggedIn,
        headers: {
          'X-GPGAuth-Authenticated': 'true',
          'X-GPGAuth-Progress': 'complete',
          'X-GPGAuth-Refer': '/',
        },
      })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/auth/is-authenticated.json',
    action: 'AuthIsAuthenticated.isAuthenticated',
    summary: 'Is the session signed in? A probe: it does not extend the session',
    description:
      "200 while the cookie session is signed in, 401 otherwise. Unlike other calls, it does not push back the session's inactivity timeout.",
    auth: 'user',
    // Sign-in and session routes act on the caller's own session; the key or token proves who.
    permission: 'none',
    response: noBody,
    handler: ({ request }) => {
      request.state.keepSessionIdle = true
      return null
    },
  }),
  // The extension posts; when that fails it falls back to GET, which passbolt also accepts.
  ...(['POST', 'GET'] as const).map((method) =>
    defineRoute({
      method,
      path: '/auth/logout.json',
      action: 'AuthLogout.logout',
      summary: 'End the cookie session',
      description:
        'Ends the caller’s cookie session, if any, and expires its cookie. Answers 200 even without a session. A bearer (JWT) request is refused with 400: it signs out with /auth/jwt/logout.json.',
      auth: 'public',
      // Ends only the caller's own session, if there is one.
      permission: 'none',
      message: messages.loggedOut,
      response: noBody,
      handler: async ({ em, request }) => {
        await endSession(em, request, request.state.session as Session | undefined)
        request.state.session = undefined
        return null
      },
    }),
  ),
  defineRoute({
    method: 'GET',
    path: '/users/csrf-token.json',
    action: 'UsersCsrfToken.get',
    summary: 'The CSRF token of this browser session',
    description:
      'The value of the `csrfToken` cookie, which cookie-session clients echo in the `X-CSRF-Token` header of every changing call; sets the cookie when the browser has none.',
    auth: 'public',
    // Sign-in and session routes act on the caller's own session; the key or token proves who.
    permission: 'none',
    response: z.string().nullable(),
    handler: ({ request }) => (request.state.csrfToken as string | undefined) ?? null,
  }),
]
