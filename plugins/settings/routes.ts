// Routes of the settings plugin.
import { defineRoute, Reply } from '../../api/plugin.ts'
import { buildSettings } from './service.ts'

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/settings.json',
    action: 'SettingsIndex.index',
    summary: 'Server settings and the plugins it offers (guest or signed-in shape)',
    description:
      'What the clients need before and after sign-in: the application URL, locale, server version and the settings flags of every enabled plugin. Guests get the public flags only; signed-in users also get the flags meant for them.',
    auth: 'public',
    // Server settings; what a guest may see is chosen by the settings flags.
    permission: 'none',
    query: { contain: { header: {} } },
    handler: async ({ app, user, query, em }) => {
      const settings = await buildSettings(em, app, user)
      // Legacy clients ask for the bare object with contain[header]=0.
      return query.contain.header === false ? new Reply(settings, { raw: true }) : settings
    },
  }),
]
