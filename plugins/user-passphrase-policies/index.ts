// User passphrase policies: how strong the passphrase protecting a user's private key must be.
import { definePlugin } from '../../api/plugin.ts'
import { routes } from './routes.ts'
import { readUserPassphrasePolicies } from './service.ts'

export { policies as userPassphrasePoliciesBody } from './routes.ts'
export { readUserPassphrasePolicies } from './service.ts'

export default definePlugin({
  name: 'user-passphrase-policies',
  dependsOn: ['settings'],
  routes,
  settings: () => ({ user: { userPassphrasePolicies: { enabled: true, version: '1.0.0' } } }),
  // The extension holds a new passphrase (setup or recovery) to the policy in force.
  setupInfo: async ({ em }) => ({ user_passphrase_policy: await readUserPassphrasePolicies(em) }),
})
