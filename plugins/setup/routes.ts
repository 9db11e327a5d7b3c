// Routes of the setup plugin: the calls the extension makes from a setup or recovery link.
import { z } from 'zod'
import { forbidden } from '../../api/errors.ts'
import { defineRoute } from '../../api/plugin.ts'
import { noBody } from '../../api/response-schemas.ts'
import { userResponse } from '../users/index.ts'
import { addUserRoute } from './add-user.ts'
import { messages } from './messages.ts'
import {
  abortRecovery,
  completeRecovery,
  completeSetup,
  followCompletedSetup,
  requestRecovery,
  startFlow,
} from './service.ts'

const linkParams = z.object({
  userId: z.uuid({ error: messages.invalidUser }),
  tokenId: z.uuid({ error: messages.invalidToken }),
})
/**
 * Recovery mails per account and per address in ten minutes: enough for a user who lost the
 * first mail, too few to flood a mailbox. Earlier links stay valid when a new one is sent.
 */
export const RECOVERY_MAILS_PER_ACCOUNT = 3
const RECOVERY_REQUESTS_PER_ADDRESS = 30
const RECOVERY_WINDOW_SECONDS = 600

const recoveryThrottle = (username: string, ip: string) => [
  {
    key: `recover|account|${username.toLowerCase()}`,
    limit: RECOVERY_MAILS_PER_ACCOUNT,
    windowSeconds: RECOVERY_WINDOW_SECONDS,
  },
  {
    key: `recover|ip|${ip}`,
    limit: RECOVERY_REQUESTS_PER_ADDRESS,
    windowSeconds: RECOVERY_WINDOW_SECONDS,
  },
]

const userParams = z.object({ userId: z.uuid({ error: messages.invalidUser }) })

const tokenField = z.object({ token: z.uuid({ error: messages.invalidToken }) })
/** `authenticationtoken` is what the extension sends; `authentication_token` is accepted too. */
const completeBody = z
  .object({
    authenticationtoken: tokenField.optional(),
    authentication_token: tokenField.optional(),
    gpgkey: z.object({ armored_key: z.string().min(1).max(64_000) }),
  })
  .refine((body) => body.authenticationtoken ?? body.authentication_token, {
    message: 'An authentication token is required.',
    path: ['authenticationtoken', 'token'],
    params: { rule: '_required' },
  })

/**
 * A valid setup or recovery link: the user it is for, and what plugins add for the flow (the
 * passphrase policy in force as `user_passphrase_policy`), each an object.
 */
const linkResponse = z.object({ user: userResponse }).catchall(z.record(z.string(), z.unknown()))

const tokenOf = (body: z.output<typeof completeBody>) =>
  (body.authenticationtoken ?? body.authentication_token)!.token

const completeRoutes = (method: 'PUT' | 'POST') => [
  // `/users/validateAccount` is the path passbolt's older clients finish a setup on.
  ...(['/setup/complete/{userId}.json', '/users/validateAccount/{userId}.json'] as const).map(
    (path) =>
      defineRoute({
        method,
        path,
        action: 'SetupComplete.complete',
        summary: 'Finish the setup: store the public key and activate the account',
        description:
          "The last step of a setup link: stores the user's armored public key (with the account recovery choice) and activates the account. The setup token is spent; it works once.",
        auth: 'public',
        // The link's single-use token proves who; the user is never signed in here.
        permission: 'none',
        csrf: false,
        params: userParams,
        body: completeBody,
        throttle: { account: ({ params }) => params.userId },
        response: noBody,
        message: messages.setupCompleted,
        handler: async ({ params, body, em, user, app }) => {
          if (user) throw forbidden(messages.guestsOnly)
          await completeSetup(em, params.userId, tokenOf(body), body.gpgkey.armored_key)
          await followCompletedSetup(em, app, params.userId)
          return null
        },
      }),
  ),
  defineRoute({
    method,
    path: '/setup/recover/complete/{userId}.json',
    action: 'RecoverComplete.complete',
    summary: "Finish a recovery: the key must be the account's key",
    description:
      'The last step of a recovery link: the key sent must be the one the account already has. The recovery token is spent.',
    auth: 'public',
    // The link's single-use token proves who; the user is never signed in here.
    permission: 'none',
    csrf: false,
    params: userParams,
    body: completeBody,
    throttle: { account: ({ params }) => params.userId },
    message: messages.recoveryCompleted,
    response: noBody,
    handler: async ({ params, body, em, user }) => {
      if (user) throw forbidden(messages.guestsOnly)
      await completeRecovery(em, params.userId, tokenOf(body), body.gpgkey.armored_key)
      return null
    },
  }),
]

export const routes = [
  addUserRoute,
  // passbolt answers the setup link under both paths: `install` for API clients, `start` for
  // the extension.
  ...(
    ['/setup/start/{userId}/{tokenId}.json', '/setup/install/{userId}/{tokenId}.json'] as const
  ).map((path) =>
    defineRoute({
      method: 'GET',
      path,
      action: 'SetupStart.start',
      summary: 'Check a setup link and return the user it is for',
      description:
        'Whether the setup token is valid for this user (not expired, not used) and who the user is, with the passphrase policy in force.',
      auth: 'public',
      // The link's single-use token proves who; the user is never signed in here.
      permission: 'none',
      params: linkParams,
      response: linkResponse,
      throttle: { account: ({ params }) => params.userId },
      handler: ({ params, em, app }) =>
        startFlow(em, app, 'register', params.userId, params.tokenId),
    }),
  ),
  ...completeRoutes('PUT'),
  ...completeRoutes('POST'),
  defineRoute({
    method: 'POST',
    path: '/users/recover.json',
    action: 'UsersRecover.post',
    summary: 'Ask for an account recovery link by email',
    description:
      'Mails a recovery link to an active user with that username. The answer does not say whether the address is known. At most 3 requests per username and 30 per client address in ten minutes, counted whether or not the account exists (429 beyond, alike for every address); a new link leaves the earlier ones valid.',
    auth: 'public',
    // The link's single-use token proves who; the user is never signed in here.
    permission: 'none',
    body: z.object({ username: z.email().max(255) }),
    throttle: { account: ({ body }) => body.username },
    message: messages.recoveryRequested,
    response: noBody,
    handler: async ({ body, em, app, request }) => {
      // Counted before the account is looked up, so a known and an unknown address are
      // answered alike, refusals included.
      await app.throttle.hit(recoveryThrottle(body.username, request.ip))
      await requestRecovery(em, app, body.username)
      return null
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/setup/recover/start/{userId}/{tokenId}.json',
    action: 'RecoverStart.start',
    summary: 'Check a recovery link and return the user it is for',
    description:
      'Whether the recovery token is valid for this user and who the user is, with the passphrase policy in force.',
    auth: 'public',
    // The link's single-use token proves who; the user is never signed in here.
    permission: 'none',
    params: linkParams,
    throttle: { account: ({ params }) => params.userId },
    response: linkResponse,
    handler: ({ params, em, app }) => startFlow(em, app, 'recover', params.userId, params.tokenId),
  }),
  ...(['POST', 'PUT'] as const).map((method) =>
    defineRoute({
      method,
      path: '/setup/recover/abort/{userId}.json',
      action: method === 'POST' ? 'RecoverAbort.post' : 'RecoverAbort.abort',
      summary: 'Abandon a recovery; its link stops working',
      description: 'Marks the recovery token as used so the link in the mail no longer works.',
      auth: 'public',
      // The link's single-use token proves who; the user is never signed in here.
      permission: 'none',
      csrf: false,
      params: userParams,
      body: z.object({ authenticationtoken: tokenField }),
      response: noBody,
      message: messages.recoveryAborted,
      handler: async ({ params, body, em }) => {
        await abortRecovery(em, params.userId, body.authenticationtoken.token)
        return null
      },
    }),
  ),
]
