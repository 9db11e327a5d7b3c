// Routes of the e-mail notification settings plugin: administrators read and change which
// notifications the organisation sends.
import { defineRoute, Reply } from '../../api/plugin.ts'
import { messages } from './messages.ts'
import { notificationChanges, notificationSettingsResponse } from './schemas.ts'
import { notificationSettingsBody, updateNotificationSettings } from './service.ts'

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/settings/emails/notifications.json',
    action: 'NotificationOrgSettingsGet.get',
    summary: 'Which e-mail notifications the organisation sends',
    description:
      "Every setting with its value: passbolt's defaults until an administrator saves some (`sources_database` then turns true).",
    auth: 'admin',
    // Organisation settings are for administrators, which `auth` already requires.
    permission: 'none',
    response: notificationSettingsResponse,
    handler: ({ em }) => notificationSettingsBody(em),
  }),
  defineRoute({
    method: 'POST',
    path: '/settings/emails/notifications.json',
    action: 'NotificationOrgSettingsPost.post',
    summary: 'Turn e-mail notifications on or off',
    description:
      'Changes the settings named in the body (booleans; `"true"`, `"1"`, `"false"`, `"0"` are read as such) and keeps the others; unknown names are ignored, a non-boolean is refused (400). A notification turned off is not sent to anyone.',
    auth: 'admin',
    // Organisation settings are for administrators, which `auth` already requires.
    permission: 'none',
    body: notificationChanges,
    transaction: true,
    response: notificationSettingsResponse,
    handler: async ({ em, app, user, body }) => {
      const changes = Object.fromEntries(
        Object.entries(body).filter(([, value]) => value !== undefined),
      )
      await updateNotificationSettings(em, app, changes, user.id)
      return new Reply(await notificationSettingsBody(em), { message: messages.updated })
    },
  }),
]
