// E-mail notifications: which notifications the organisation sends. Its mail hook is the one
// place a turned-off notification is stopped: every mail carrying that tag is dropped.
import { definePlugin } from '../../api/plugin.ts'
import { routes } from './routes.ts'
import { allowsNotification, initNotificationCache, readNotificationSettings } from './service.ts'

export {
  isNotificationName,
  NOTIFICATION_DEFAULTS,
  type NotificationName,
} from './catalogue.ts'
export { notificationChanges } from './schemas.ts'
export { readNotificationSettings } from './service.ts'

export default definePlugin({
  name: 'email-notifications',
  dependsOn: ['settings'],
  routes,
  init: async (app) => initNotificationCache(app),
  healthcheck: async (_app, em) => {
    const { settings } = await readNotificationSettings(em)
    return {
      application: {
        emailNotificationEnabled: Object.entries(settings).some(
          ([name, on]) => name.startsWith('send_') && on,
        ),
      },
    }
  },
  mail: { allows: (notification, app) => allowsNotification(app, notification) },
})
