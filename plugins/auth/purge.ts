// The periodic purge of what can no longer be used: tokens past their lifetime (a spent refresh
// token is kept that long, so its replay is still recognised), sessions idle past the timeout,
// and throttle counters whose window has ended. Run once an hour across all processes; the
// token purge also skips rows another process is deleting, so a purge never waits on another.
import { executeStatement } from '../../api/orm.ts'
import type { ScheduledJob } from '../../api/plugin.ts'
import { purgeExpiredTokens } from './tokens.ts'

export const purgeExpired: ScheduledJob = {
  name: 'auth.purge-expired',
  everyMs: 3_600_000,
  run: async (em, app) => {
    const tokens = await purgeExpiredTokens(em)
    const sessions = await executeStatement(em, (knex) =>
      knex('sessions')
        .where('last_activity', '<', new Date(Date.now() - app.config.sessionTimeout * 60_000))
        .delete(),
    )
    const throttles = await app.throttle.purge()
    if (tokens || sessions || throttles)
      app.logger.info(
        { tokens, sessions, throttles },
        'expired tokens, sessions and throttles purged',
      )
  },
}
