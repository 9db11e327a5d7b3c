// Password history (passbolt's secret revisions): the secrets a user had for a resource before
// it was updated, kept per the organisation's settings, and readable by that user only.
import { definePlugin } from '../../api/plugin.ts'
import { Migration20261126130300SecretRevisions } from './migrations/Migration20261126130300SecretRevisions.ts'
import { routes } from './routes.ts'

export { settingsSchema as secretRevisionsSettings } from './schemas.ts'

export default definePlugin({
  name: 'secret-revisions',
  tables: ['secret_revisions'],
  dependsOn: ['settings', 'permissions', 'users', 'secrets'],
  migrations: [
    {
      name: 'Migration20261126130300SecretRevisions',
      class: Migration20261126130300SecretRevisions,
    },
  ],
  routes,
  settings: () => ({ user: { secretRevisions: { enabled: true, version: '1.0.0' } } }),
})
