// Healthcheck: a public liveness probe and the administrators' detailed checks.
import { definePlugin } from '../../api/plugin.ts'
import { routes } from './routes.ts'

export { type Check, runChecks } from './service.ts'

export default definePlugin({ name: 'healthcheck', dependsOn: ['roles', 'settings'], routes })
