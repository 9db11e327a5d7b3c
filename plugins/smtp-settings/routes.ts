// Routes of the SMTP settings plugin: administrators read and save the server Keyward sends
// mail through, and try settings with a test e-mail before saving them.
import { HttpError } from '../../api/errors.ts'
import { defineRoute, Reply } from '../../api/plugin.ts'
import { messages } from './messages.ts'
import { OauthTokenError } from './oauth.ts'
import {
  smtpSettingsBody,
  smtpSettingsResponse,
  smtpTestBody,
  smtpTestResponse,
} from './schemas.ts'
import { forgetSavedSmtpSettings, smtpServerOf, smtpSettingsAnswer } from './service.ts'
import { normalizeSettings, writeSmtpSettings } from './store.ts'
import { sendTestMail } from './test-mail.ts'

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/smtp/settings.json',
    action: 'SmtpSettingsGet.get',
    summary: 'The SMTP server and sender Keyward sends mail with',
    description:
      'The saved settings (`source: db`, password included, as the administration page edits them), else the server of the configuration (`source: env`, its password never shown), else, when no server is configured (mail is written to the outbox folder), a starting point for the form (`source: env`, `localhost:25`).',
    auth: 'admin',
    // Organisation settings are for administrators, which `auth` already requires.
    permission: 'none',
    response: smtpSettingsResponse,
    handler: ({ em, app, user }) => smtpSettingsAnswer(em, app, user.username),
  }),
  ...(['POST', 'PUT'] as const).map((method) =>
    defineRoute({
      method,
      path: '/smtp/settings.json',
      action: 'SmtpSettingsPost.post',
      summary: 'Save the SMTP server and sender',
      description:
        'Replaces the saved settings; from then on every mail goes through them instead of the configured server. Stored encrypted to the server key. Refuses (400, keyed by field) a missing or malformed sender, host or port, and OAuth2 settings without all four of tenant, client id, client secret and OAuth2 username.',
      auth: 'admin',
      // Organisation settings are for administrators, which `auth` already requires.
      permission: 'none',
      body: smtpSettingsBody,
      transaction: true,
      response: smtpSettingsResponse,
      handler: async ({ em, app, user, body }) => {
        await writeSmtpSettings(em, app, normalizeSettings(body), user.id)
        forgetSavedSmtpSettings(app)
        return smtpSettingsAnswer(em, app, user.username)
      },
    }),
  ),
  defineRoute({
    method: 'POST',
    path: '/smtp/email.json',
    action: 'SmtpSettingsEmail.sendTestEmail',
    summary: 'Send a test e-mail with the given settings',
    description:
      'Sends a test message to `email_test_to` through the settings in the body (nothing is saved) and answers the SMTP conversation as `debug` (credentials masked). 400 with the conversation when the server refuses or cannot be reached.',
    auth: 'admin',
    // Sending through arbitrary settings is for administrators, which `auth` already requires.
    permission: 'none',
    body: smtpTestBody,
    response: smtpTestResponse,
    handler: async ({ app, body }) => {
      const settings = normalizeSettings(body)
      let server: Awaited<ReturnType<typeof smtpServerOf>>
      try {
        server = await smtpServerOf(app, settings)
      } catch (error) {
        if (error instanceof OauthTokenError) throw new HttpError(400, error.message, { debug: [] })
        throw error
      }
      const result = await sendTestMail(
        server,
        {
          to: body.email_test_to,
          subject: messages.testSubject,
          text: messages.testText(app.config.appUrl),
        },
        [settings.client_secret],
      )
      if (!result.ok)
        throw new HttpError(400, result.error ?? messages.invalid, { debug: result.trace })
      return new Reply({ debug: result.trace })
    },
  }),
]
