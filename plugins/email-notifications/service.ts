// Reads and writes the organisation's e-mail notification settings (one organisation setting),
// and answers the mailer's question "may this notification go out?" from a cache the change
// feed clears.
import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { FeedCache } from '../../api/db/change-feed.ts'
import { pluginState } from '../../api/plugin.ts'
import { readOrganizationSetting, writeOrganizationSetting } from '../settings/index.ts'
import {
  isNotificationName,
  NOTIFICATION_DEFAULTS,
  type NotificationName,
  type NotificationSettings,
} from './catalogue.ts'

const PROPERTY = 'emailNotification'

/** The defaults with what an administrator saved over them; unknown names are ignored. */
export const readNotificationSettings = async (
  em: EntityManager,
): Promise<{ settings: NotificationSettings; saved: boolean }> => {
  const stored = await readOrganizationSetting<Record<string, unknown>>(em, PROPERTY)
  const settings: NotificationSettings = { ...NOTIFICATION_DEFAULTS }
  for (const [name, value] of Object.entries(stored ?? {}))
    if (isNotificationName(name) && typeof value === 'boolean') settings[name] = value
  return { settings, saved: stored !== undefined }
}

/** passbolt's answer: every setting, and where they come from (no configuration file here). */
export const notificationSettingsBody = async (em: EntityManager) => {
  const { settings, saved } = await readNotificationSettings(em)
  return { sources_database: saved, sources_file: false, ...settings }
}

/** Saves the changes over the settings in force, so names left out keep their value. */
export const updateNotificationSettings = async (
  em: EntityManager,
  app: AppContext,
  changes: Partial<NotificationSettings>,
  userId: string,
) => {
  const { settings } = await readNotificationSettings(em)
  await writeOrganizationSetting(em, PROPERTY, { ...settings, ...changes }, userId)
  cache.get(app).forget(PROPERTY)
}

const cache = pluginState<FeedCache<NotificationSettings>>('email-notifications.settings')

export const initNotificationCache = (app: AppContext) =>
  cache.set(app, new FeedCache(app.changes, 'organization_settings', 'table'))

/**
 * Whether mails tagged `name` may go out. A name the catalogue does not know is a programming
 * error: the mail goes out (dropping it silently would hide the mistake) and the log says so.
 */
export const allowsNotification = async (app: AppContext, name: string): Promise<boolean> => {
  if (!isNotificationName(name)) {
    app.logger.warn({ notification: name }, 'mail tagged with an unknown notification')
    return true
  }
  const settings = await cache
    .get(app)
    .get(PROPERTY, async () => (await readNotificationSettings(app.orm.em.fork())).settings)
  return settings[name as NotificationName]
}
