// Self-registration: people with an address in a domain the administrators allow create their
// own account and receive the setup link, as if an administrator had added them.
import { definePlugin } from '../../api/plugin.ts'
import { routes } from './routes.ts'
import { allowedDomains } from './service.ts'

export { settingsBody as selfRegistrationBody } from './schemas.ts'
export { allowedDomains } from './service.ts'

export default definePlugin({
  name: 'self-registration',
  dependsOn: ['settings', 'users', 'setup'],
  routes,
  healthcheck: async (_app, em) => ({
    application: {
      registrationClosed: {
        isSelfRegistrationPluginEnabled: true,
        selfRegistrationProvider: (await allowedDomains(em)) ? 'email_domains' : null,
        isRegistrationPublicRemovedFromPassbolt: true,
      },
    },
  }),
  settings: () => ({ public: { selfRegistration: { enabled: true, version: '1.0.0' } } }),
})
