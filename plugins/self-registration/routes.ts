// Routes of the self-registration plugin: administrators open registration to e-mail domains;
// guests check an address (dry run) and register, which mails them the setup link.
import { z } from 'zod'
import { badRequest, forbidden, HttpError } from '../../api/errors.ts'
import { defineRoute } from '../../api/plugin.ts'
import { noBody } from '../../api/response-schemas.ts'
import { organizationSettingResponse } from '../settings/index.ts'
import { registerUser } from '../setup/index.ts'
import { loadUser, serializeUser, userResponse } from '../users/index.ts'
import { messages } from './messages.ts'
import { dryRunBody, registerBody, settingsBody } from './schemas.ts'
import {
  allowedDomains,
  checkRegistration,
  deleteSelfRegistration,
  readSelfRegistration,
  saveSelfRegistration,
} from './service.ts'

/** The domains whose addresses may register, with the setting's row; both null when closed. */
const settingsResponse = z.union([
  organizationSettingResponse({
    provider: z.literal('email_domains'),
    data: z.object({ allowed_domains: z.array(z.string()) }),
  }),
  z.object({ provider: z.null(), data: z.null() }),
])

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/self-registration/settings.json',
    action: 'SelfRegistrationGetSettings.getSettings',
    summary: 'Which e-mail domains may register themselves',
    description:
      '`{provider: null, data: null}` while registration is closed; else the `email_domains` provider with its `allowed_domains` and the row identity.',
    auth: 'admin',
    // Organisation settings are for administrators, which `auth` already requires.
    permission: 'none',
    response: settingsResponse,
    handler: ({ em }) => readSelfRegistration(em),
  }),
  ...(['POST', 'PUT'] as const).map((method) =>
    defineRoute({
      method,
      path: '/self-registration/settings.json',
      action: 'SelfRegistrationSetSettings.setSettings',
      summary: 'Open registration to e-mail domains',
      description:
        'Replaces the allowed domains (lower-cased, duplicates dropped). Refuses (400) another provider than `email_domains`, an empty list and a malformed domain (keyed by its index).',
      auth: 'admin',
      // Organisation settings are for administrators, which `auth` already requires.
      permission: 'none',
      body: settingsBody,
      response: settingsResponse,
      handler: ({ em, user, body }) => saveSelfRegistration(em, body, user.id),
    }),
  ),
  defineRoute({
    method: 'DELETE',
    path: '/self-registration/settings/{id}.json',
    action: 'SelfRegistrationDeleteSettings.deleteSettings',
    summary: 'Close registration',
    description:
      'Deletes the settings whose id is given. 400 when the id is not a UUID, 404 when no such settings exist.',
    auth: 'admin',
    // Organisation settings are for administrators, which `auth` already requires.
    permission: 'none',
    params: z.object({ id: z.string() }),
    response: noBody,
    handler: async ({ em, params }) => {
      if (!z.uuid().safeParse(params.id).success) throw badRequest(messages.invalidId)
      await deleteSelfRegistration(em, params.id.toLowerCase())
      return null
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/self-registration/dry-run.json',
    action: 'SelfRegistrationDryRun.dryRun',
    summary: 'Check that an address may register',
    description:
      '200 when `email` may register; 403 while registration is closed or when the address is taken, 400 when its domain is not allowed. Guests only (403 for a signed-in user).',
    auth: 'public',
    // A guest check of one address against the organisation's settings; nothing is changed.
    permission: 'none',
    body: dryRunBody,
    throttle: { account: ({ body }) => body.email },
    response: noBody,
    handler: async ({ em, user, body }) => {
      if (user) throw forbidden(messages.guestsOnly)
      await checkRegistration(em, body.email)
      return null
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/users/register.json',
    action: 'UsersRegister.registerPost',
    summary: 'Register: a guest creates their own account',
    description:
      'Creates an inactive user with the `user` role and mails the setup link, when registration is open and the address is in an allowed domain. 404 while registration is closed, 403 for a signed-in caller or an address already taken, 400 for a domain that is not allowed or a malformed form.',
    auth: 'public',
    // The organisation's allowed domains decide; the new account proves itself by its mailed link.
    permission: 'none',
    body: registerBody,
    throttle: { account: ({ body }) => body.username },
    transaction: true,
    response: userResponse,
    handler: async ({ em, app, user, body }) => {
      if (!(await allowedDomains(em))) throw new HttpError(404, messages.notOpen)
      if (user) throw forbidden(messages.guestsOnly)
      await checkRegistration(em, body.username)
      const created = await registerUser(em, app, {
        username: body.username.toLowerCase(),
        firstName: body.profile.first_name,
        lastName: body.profile.last_name,
        role: 'user',
      })
      const bundle = await loadUser(em, created.user.id)
      return serializeUser(bundle!, app.config.appUrl, { profile: true, role: true })
    },
  }),
]
