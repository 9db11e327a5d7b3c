// Account settings: each user's theme (and, with the locale plugin, language), as the official
// clients read them after sign-in.
import { definePlugin } from '../../api/plugin.ts'
import { routes } from './routes.ts'

export default definePlugin({
  name: 'account-settings',
  dependsOn: ['settings'],
  routes,
  settings: () => ({ user: { accountSettings: { enabled: true, version: '1.0.0' } } }),
})
