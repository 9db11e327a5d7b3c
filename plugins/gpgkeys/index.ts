// Gpgkeys: the users' OpenPGP public keys, read by the clients to encrypt for each other. The
// keys themselves are stored by the users plugin (setup, recovery).
import { definePlugin } from '../../api/plugin.ts'
import { routes } from './routes.ts'

export default definePlugin({
  name: 'gpgkeys',
  dependsOn: ['users'],
  routes,
})
