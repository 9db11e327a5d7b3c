// Password expiry: passwords marked expired when someone loses access to them.
import { definePlugin } from '../../api/plugin.ts'
import { routes } from './routes.ts'

export default definePlugin({
  name: 'password-expiry',
  dependsOn: ['settings'],
  routes,
  settings: () => ({ user: { passwordExpiry: { enabled: true, version: '1.0.0' } } }),
})
