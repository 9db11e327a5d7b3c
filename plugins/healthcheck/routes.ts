// Routes of the healthcheck plugin.
import { z } from 'zod'
import { defineRoute, Reply } from '../../api/plugin.ts'
import { checksBody, runChecks } from './service.ts'

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/healthcheck/status.json',
    action: 'HealthcheckStatus.status',
    summary: 'Liveness probe: answers OK',
    auth: 'public',
    response: z.literal('OK'),
    handler: () => new Reply('OK', { message: 'OK' }),
  }),
  defineRoute({
    method: 'GET',
    path: '/healthcheck.json',
    action: 'HealthcheckIndex.index',
    summary: "The server's checks by domain",
    auth: 'admin',
    response: z.record(z.string(), z.record(z.string(), z.unknown())),
    handler: async ({ app }) => checksBody(app, await runChecks(app)),
  }),
]
