// Healthcheck: a public liveness probe, the administrators' detailed checks, and the
// `api healthcheck` command.
import { definePlugin } from '../../api/plugin.ts'
import { registerCommands } from './commands.ts'
import { routes } from './routes.ts'

export { type Check, runChecks } from './service.ts'

export default definePlugin({
  name: 'healthcheck',
  dependsOn: ['roles', 'settings'],
  routes,
  commands: registerCommands,
  // The administration page that shows the report.
  settings: () => ({ user: { healthcheckUi: { enabled: true, version: '1.0.0' } } }),
})
