// Mobile transfers: a signed-in user hands their account to the passbolt mobile app, which reads
// the key from QR codes the extension shows and reports each page to the server.
import { definePlugin } from '../../api/plugin.ts'
import { TransferSchema } from './entities/Transfer.ts'
import { Migration20261126130000Transfers } from './migrations/Migration20261126130000Transfers.ts'
import { routes } from './routes.ts'

export { TransferSchema }

export default definePlugin({
  name: 'mobile-transfers',
  dependsOn: ['users', 'auth'],
  entities: [TransferSchema],
  migrations: [
    { name: 'Migration20261126130000Transfers', class: Migration20261126130000Transfers },
  ],
  routes,
  // The extension shows "Mobile transfer" in the user's settings only with this flag.
  settings: () => ({ user: { mobile: { enabled: true, version: '1.0.0' } } }),
})
