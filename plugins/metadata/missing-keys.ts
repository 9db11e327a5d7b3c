// `contain[missing_metadata_key_ids]` of the user directory: for each active user, the live
// metadata keys they hold no copy of (an administrator then shares them). Administrators may
// ask it of anyone; others only of themselves.
import { forbidden } from '../../api/errors.ts'
import { selectRows } from '../../api/orm.ts'
import type { ContainContext } from '../../api/plugin.ts'
import { messages } from './messages.ts'

export const missingMetadataKeyIds = async (
  rows: ({ id: string } & Record<string, unknown>)[],
  { em, user }: ContainContext,
) => {
  if (user?.role !== 'admin' && rows.some((row) => row.id !== user?.id))
    throw forbidden(messages.missingKeyIdsAdminOnly)
  const ids = rows.map((row) => row.id)
  const missing = await selectRows<{ user_id: string; key_ids: string[] }>(em, (knex) =>
    knex('users')
      .crossJoin(knex.raw('metadata_keys'))
      .whereIn('users.id', ids)
      .where('users.active', true)
      .whereNull('metadata_keys.deleted')
      .whereNotExists(
        knex('metadata_private_keys')
          .whereRaw('metadata_private_keys.metadata_key_id = metadata_keys.id')
          .whereRaw('metadata_private_keys.user_id = users.id'),
      )
      .groupBy('users.id')
      .select(
        'users.id as user_id',
        knex.raw('array_agg(metadata_keys.id order by metadata_keys.created) as key_ids'),
      ),
  )
  const byUser = new Map(missing.map((row) => [row.user_id, row.key_ids]))
  for (const row of rows) row.missing_metadata_key_ids = byUser.get(row.id) ?? []
}
