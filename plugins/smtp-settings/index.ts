// SMTP settings: the mail server and sender an administrator saves from the administration
// page (encrypted to the server key), used by the mailer instead of the configured server, and
// the test e-mail that tries settings before they are saved.
import { definePlugin } from '../../api/plugin.ts'
import { routes } from './routes.ts'
import { initSmtpState, savedSmtpServer, smtpHealthcheck } from './service.ts'

export { smtpSettingsBody } from './schemas.ts'
export {
  normalizeSettings as normalizeSmtpSettings,
  readSavedSmtpSettings,
  sealSmtpSettings,
} from './store.ts'

export default definePlugin({
  name: 'smtp-settings',
  dependsOn: ['settings'],
  routes,
  init: async (app) => initSmtpState(app),
  mail: { transport: (app) => savedSmtpServer(app) },
  healthcheck: smtpHealthcheck,
  settings: () => ({ user: { smtpSettings: { enabled: true, version: '1.0.0' } } }),
})
