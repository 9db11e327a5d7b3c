// What `contain[...]` may add to a transfer: its user, with profile and avatar for the phone's
// summary screen.
import type { ContainContext, ContainSpec } from '../../api/plugin.ts'
import { embeddedUsers } from '../users/index.ts'
import type { TransferJson } from './schemas.ts'

export const transferContain = {
  user: {
    load: async (
      rows: (Omit<TransferJson, 'user'> & { user?: unknown })[],
      { em, app, contain }: ContainContext,
    ) => {
      const users = await embeddedUsers(
        em,
        rows.map((row) => row.user_id),
        { profile: Boolean(contain['user.profile']), appUrl: app.config.appUrl },
      )
      for (const row of rows) row.user = users.get(row.user_id) ?? null
    },
  },
  // Filled by the `user` loader, which it turns on.
  'user.profile': { requires: ['user'] },
} satisfies Record<string, ContainSpec>
