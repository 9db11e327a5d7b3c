// Routes of the healthcheck plugin.
import { z } from 'zod'
import { defineRoute, Reply } from '../../api/plugin.ts'
import { healthcheckReport } from './report.ts'

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/healthcheck/status.json',
    action: 'HealthcheckStatus.status',
    summary: 'Liveness probe: answers OK',
    description:
      'Answers `OK` while the process runs, without touching the database: for load balancers and container health checks.',
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
    description:
      "passbolt's healthcheck layout (environment, configFile, core, ssl, smtpSettings, database, gpg, application), which the administration page shows; PHP-named fields report their Node.js counterparts.",
    auth: 'admin',
    // Nothing per item: the probe is public, the checks are for administrators (auth).
    permission: 'none',
    response: z.record(z.string(), z.record(z.string(), z.unknown())),
    handler: ({ app, em }) => healthcheckReport(app, em),
  }),
]
