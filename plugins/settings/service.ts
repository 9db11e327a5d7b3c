// Builds /settings.json: a common part, the public plugin flags for guests, and for
// signed-in users the version, timeouts and every enabled plugin's flags.

import type { EntityManager } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import type { AuthUser } from '../../api/auth/user.ts'
import { EDITION, isSupportedLocale, KEYWARD_VERSION, ORGANIZATION_LOCALE } from './constants.ts'
import { readOrganizationSetting } from './store.ts'

const merge = (target: Record<string, unknown>, source: Record<string, unknown>) => {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key]
    target[key] =
      existing && typeof existing === 'object' && value && typeof value === 'object'
        ? { ...(existing as object), ...(value as object) }
        : value
  }
  return target
}

/** The organisation's language: what an administrator chose, else the configured one. */
export const organizationLocale = async (em: EntityManager, app: AppContext) => {
  const chosen = await readOrganizationSetting<string>(em, ORGANIZATION_LOCALE)
  return isSupportedLocale(chosen) ? chosen : app.config.locale
}

export const buildSettings = async (
  em: EntityManager,
  app: AppContext,
  user: AuthUser | undefined,
) => {
  const plugins: Record<string, unknown> = {}
  for (const plugin of app.plugins) {
    const flags = plugin.settings?.(app)
    if (!flags) continue
    merge(plugins, flags.public ?? {})
    if (user) merge(plugins, flags.user ?? {})
  }
  const { config } = app
  const common = {
    url: config.appUrl,
    locale: await organizationLocale(em, app),
  }
  return {
    app: user
      ? {
          ...common,
          version: KEYWARD_VERSION,
          debug: 0,
          server_timezone: 'UTC',
          session_timeout: config.sessionTimeout,
        }
      : common,
    passbolt: {
      legal: { privacy_policy: { url: config.privacyPolicyUrl }, terms: { url: config.termsUrl } },
      edition: EDITION,
      plugins,
    },
  }
}
