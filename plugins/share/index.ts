// Share: changing who can read a resource, with the secrets of the users who gain access, and
// finding the users and groups to share with.
import { definePlugin } from '../../api/plugin.ts'
import { routes } from './routes.ts'

export default definePlugin({
  name: 'share',
  dependsOn: ['roles', 'users', 'permissions', 'secrets', 'resources'],
  routes,
})
