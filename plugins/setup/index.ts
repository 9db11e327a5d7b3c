// Setup: onboarding and recovery of accounts, and the `api user create` command.
import { definePlugin } from '../../api/plugin.ts'
import { registerCommands } from './commands.ts'
import { routes } from './routes.ts'

export { completeSetup, registerUser } from './service.ts'

export default definePlugin({
  name: 'setup',
  dependsOn: ['users', 'auth', 'roles'],
  routes,
  commands: registerCommands,
})
