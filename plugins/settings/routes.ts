// Routes of the settings plugin.
import { z } from 'zod'
import { defineRoute, Reply } from '../../api/plugin.ts'
import { buildSettings } from './service.ts'

/** Guests get the address and locale; signed-in users the server's version and timeouts too. */
const settingsResponse = z.object({
  app: z.object({
    url: z.string(),
    locale: z.string(),
    version: z.object({ number: z.string(), name: z.string() }).optional(),
    debug: z.literal(0).optional(),
    server_timezone: z.string().optional(),
    session_timeout: z.number().optional(),
  }),
  passbolt: z.object({
    legal: z.object({
      privacy_policy: z.object({ url: z.string() }),
      terms: z.object({ url: z.string() }),
    }),
    edition: z.string(),
    plugins: z.record(z.string(), z.unknown()).meta({
      description: 'Each enabled plugin’s flags, by plugin name (e.g. `jwtAuthentication`).',
    }),
  }),
})

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
    response: settingsResponse,
    handler: async ({ app, user, query, em }) => {
      const settings = await buildSettings(em, app, user)
      // Legacy clients ask for the bare object with contain[header]=0.
      return query.contain.header === false ? new Reply(settings, { raw: true }) : settings
    },
  }),
]
