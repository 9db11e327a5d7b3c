// Password policies: the generator settings every client applies, set by administrators.
import { definePlugin } from '../../api/plugin.ts'
import { routes } from './routes.ts'

export { passwordPolicies as passwordPoliciesBody } from './schemas.ts'

export default definePlugin({
  name: 'password-policies',
  dependsOn: ['settings'],
  routes,
  settings: () => ({
    user: {
      passwordPolicies: { enabled: true, version: '1.0.0' },
      // The administration page for the policy.
      passwordPoliciesUpdate: { enabled: true, version: '1.0.0' },
    },
  }),
})
