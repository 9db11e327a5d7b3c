// Metrics: `GET /metrics` in the Prometheus text format, for the addresses the configuration
// allows (KEYWARD_METRICS_ALLOW_FROM); any other caller is told the page does not exist.
import { HttpError, messages } from '../../api/errors.ts'
import { addressAllowed } from '../../api/metrics.ts'
import { definePlugin, defineRoute, Reply } from '../../api/plugin.ts'

export default definePlugin({
  name: 'metrics',
  routes: [
    defineRoute({
      method: 'GET',
      path: '/metrics',
      action: 'Metrics.index',
      summary: 'Prometheus metrics of the process',
      description:
        "Request counts and latency per route, throttle refusals (429) per route, the database pool's use, the mail queue's depth and Node's process figures, in the Prometheus text format. Answered only to the addresses and ranges of `KEYWARD_METRICS_ALLOW_FROM` (loopback by default); 404 for anyone else. With `--workers`, the figures of every worker, summed (the mail queue's depth, the same for all, is given once).",
      auth: 'public',
      // Prometheus does not sign in: the address allow-list is the guard, checked in the handler.
      permission: 'none',
      produces: 'text/plain; version=0.0.4; charset=utf-8',
      handler: async ({ app, request }) => {
        if (!addressAllowed(app.config.metricsAllowFrom, request.ip))
          throw new HttpError(404, messages.notFound)
        return new Reply(Buffer.from(await app.metrics.render()), {
          binary: app.metrics.registry.contentType,
        })
      },
    }),
  ],
})
