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
    // Nothing per item: the probe is public, the checks are for administrators (auth).
    permission: 'none',
    response: z.literal('OK'),
    handler: () => new Reply('OK', { message: 'OK' }),
  }),
  defineRoute({
    method: 'GET',
    path: '/healthcheck.json',
    action: 'HealthcheckIndex.index',
    summary: "The server's checks by domain",
    auth: 'admin',
    // Nothing per item: the probe is public, the checks are for administrators (auth).
    permission: 'none',
    response: z.record(z.string(), z.record(z.string(), z.unknown())),
    handler: async ({ app, em }) => checksBody(app, await runChecks(app, em)),
  }),
]
