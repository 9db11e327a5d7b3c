// Routes of the setup plugin: the calls the extension makes from a setup or recovery link.
import { z } from 'zod'
import { forbidden } from '../../api/errors.ts'
import { defineRoute } from '../../api/plugin.ts'
import { addUserRoute } from './add-user.ts'
import { messages } from './messages.ts'
import {
  abortRecovery,
  completeRecovery,
  completeSetup,
  requestRecovery,
  startFlow,
} from './service.ts'

const linkParams = z.object({
  userId: z.uuid({ error: messages.invalidUser }),
  tokenId: z.uuid({ error: messages.invalidToken }),
})
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

const tokenOf = (body: z.output<typeof completeBody>) =>
  (body.authenticationtoken ?? body.authentication_token)!.token

const completeRoutes = (method: 'PUT' | 'POST') => [
  defineRoute({
    method,
    path: '/setup/complete/{userId}.json',
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
    message: messages.setupCompleted,
    handler: async ({ params, body, em, user }) => {
      if (user) throw forbidden(messages.guestsOnly)
      await completeSetup(em, params.userId, tokenOf(body), body.gpgkey.armored_key)
      return null
    },
  }),
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
    handler: async ({ params, body, em, user }) => {
      if (user) throw forbidden(messages.guestsOnly)
      await completeRecovery(em, params.userId, tokenOf(body), body.gpgkey.armored_key)
      return null
    },
  }),
]

export const routes = [
  addUserRoute,
  defineRoute({
    method: 'GET',
    path: '/setup/start/{userId}/{tokenId}.json',
    action: 'SetupStart.start',
    summary: 'Check a setup link and return the user it is for',
    description:
      'Whether the setup token is valid for this user (not expired, not used) and who the user is, with the passphrase policy in force.',
    auth: 'public',
    // The link's single-use token proves who; the user is never signed in here.
    permission: 'none',
    params: linkParams,
    throttle: { account: ({ params }) => params.userId },
    handler: ({ params, em, app }) => startFlow(em, app, 'register', params.userId, params.tokenId),
  }),
  ...completeRoutes('PUT'),
  ...completeRoutes('POST'),
  defineRoute({
    method: 'POST',
    path: '/users/recover.json',
    action: 'UsersRecover.post',
    summary: 'Ask for an account recovery link by email',
    description:
      'Mails a recovery link to an active user with that username. The answer does not say whether the address is known.',
    auth: 'public',
    // The link's single-use token proves who; the user is never signed in here.
    permission: 'none',
    body: z.object({ username: z.email().max(255) }),
    throttle: { account: ({ body }) => body.username },
    message: messages.recoveryRequested,
    handler: async ({ body, em, app }) => {
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
    handler: ({ params, em, app }) => startFlow(em, app, 'recover', params.userId, params.tokenId),
  }),
  defineRoute({
    method: 'POST',
    path: '/setup/recover/abort/{userId}.json',
    action: 'RecoverAbort.post',
    summary: 'Abandon a recovery; its link stops working',
    description: 'Marks the recovery token as used so the link in the mail no longer works.',
    auth: 'public',
    // The link's single-use token proves who; the user is never signed in here.
    permission: 'none',
    csrf: false,
    params: userParams,
    body: z.object({ authenticationtoken: tokenField }),
    message: messages.recoveryAborted,
    handler: async ({ params, body, em }) => {
      await abortRecovery(em, params.userId, body.authenticationtoken.token)
      return null
    },
  }),
]
