// Builds /settings.json: a common part, the public plugin flags for guests, and for
// signed-in users the version, timeouts and every enabled plugin's flags.
import type { AppContext } from '../../api/app.ts'
import type { AuthUser } from '../../api/auth/user.ts'
import { KEYWARD_VERSION } from './constants.ts'

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

export const buildSettings = (app: AppContext, user: AuthUser | undefined) => {
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
    locale: config.locale,
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
      edition: 'ce',
      plugins,
    },
  }
}
