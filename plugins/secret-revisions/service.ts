// Password history through the query builder: the organisation's settings, and the current
// and past secrets of a resource as the caller may read them (their own, never anyone else's).
import type { EntityManager } from '@mikro-orm/postgresql'
import { formatTimestamp } from '../../api/envelope.ts'
import { executeStatement, selectRows } from '../../api/orm.ts'
import {
  deleteOrganizationSetting,
  readOrganizationSetting,
  writeOrganizationSetting,
} from '../settings/index.ts'
import { DEFAULT_SETTINGS, type RevisionJson, type Settings } from './schemas.ts'

const PROPERTY = 'secretRevisions'

export const readSettings = async (em: EntityManager): Promise<Settings> => {
  const stored = await readOrganizationSetting<Partial<Settings>>(em, PROPERTY)
  return {
    max_revisions: stored?.max_revisions ?? DEFAULT_SETTINGS.max_revisions,
    allow_sharing_revisions: stored?.allow_sharing_revisions ?? false,
  }
}

/** Keeps at most `past` revisions of each user's secret of each resource, the newest. */
const prune = (em: EntityManager, past: number) =>
  executeStatement(em, (knex) =>
    knex('secret_revisions')
      .whereIn(
        'id',
        knex
          .select('id')
          .from(
            knex('secret_revisions')
              .select(
                'id',
                knex.raw(
                  'row_number() over (partition by resource_id, user_id order by deleted desc, created desc) as rank',
                ),
              )
              .as('ranked'),
          )
          .where('rank', '>', past),
      )
      .delete(),
  )

export const saveSettings = async (em: EntityManager, settings: Settings, userId: string) => {
  await writeOrganizationSetting(em, PROPERTY, settings, userId)
  await prune(em, settings.max_revisions - 1)
  return readSettings(em)
}

/** Back to the default (the current secret only): the history kept so far goes. */
export const resetSettings = async (em: EntityManager) => {
  await deleteOrganizationSetting(em, PROPERTY)
  await prune(em, 0)
}

interface Row {
  id: string
  resource_id: string
  user_id: string
  resource_type_id: string
  data: string
  created: string
  created_by: string
  modified: string
  modified_by: string
  deleted: string | null
}

const revisionJson = (row: Row, withSecret: boolean): RevisionJson => ({
  id: row.id,
  resource_id: row.resource_id,
  resource_type_id: row.resource_type_id,
  created: formatTimestamp(row.created)!,
  created_by: row.created_by,
  modified: formatTimestamp(row.modified)!,
  modified_by: row.modified_by,
  deleted: formatTimestamp(row.deleted),
  ...(withSecret
    ? {
        secrets: [
          {
            id: row.id,
            user_id: row.user_id,
            resource_id: row.resource_id,
            secret_revision_id: row.id,
            data: row.data,
            created: formatTimestamp(row.created)!,
            modified: formatTimestamp(row.modified)!,
          },
        ],
      }
    : {}),
})

/**
 * The caller's current secret of the resource as its active revision, then their past ones,
 * newest first, as many as the settings keep.
 */
export const revisionsOf = async (
  em: EntityManager,
  resourceId: string,
  userId: string,
  withSecret: boolean,
) => {
  const { max_revisions } = await readSettings(em)
  const current = await selectRows<Row>(em, (knex) =>
    knex('secrets')
      .join('resource_records', 'resource_records.id', 'secrets.resource_id')
      .where({ 'secrets.resource_id': resourceId, 'secrets.user_id': userId })
      .select(
        'secrets.id',
        'secrets.resource_id',
        'secrets.user_id',
        'resource_records.resource_type_id',
        'secrets.data',
        'secrets.modified as created',
        knex.raw('coalesce(secrets.modified_by, resource_records.modified_by) as created_by'),
        'secrets.modified',
        knex.raw('coalesce(secrets.modified_by, resource_records.modified_by) as modified_by'),
        knex.raw('null as deleted'),
      ),
  )
  const past =
    max_revisions > 1
      ? await selectRows<Row>(em, (knex) =>
          knex('secret_revisions')
            .join('resource_records', 'resource_records.id', 'secret_revisions.resource_id')
            .where({
              'secret_revisions.resource_id': resourceId,
              'secret_revisions.user_id': userId,
            })
            .orderBy([
              { column: 'secret_revisions.deleted', order: 'desc' },
              { column: 'secret_revisions.created', order: 'desc' },
            ])
            .limit(max_revisions - 1)
            .select(
              'secret_revisions.id',
              'secret_revisions.resource_id',
              'secret_revisions.user_id',
              knex.raw(
                'coalesce(secret_revisions.resource_type_id, resource_records.resource_type_id) as resource_type_id',
              ),
              'secret_revisions.data',
              'secret_revisions.created',
              knex.raw(
                'coalesce(secret_revisions.created_by, resource_records.created_by) as created_by',
              ),
              // A past revision is not modified when it is replaced (passbolt stamps only
              // `deleted` then): the extension sorts by `modified`, newest first, and must find
              // the current secret above the one it replaced.
              'secret_revisions.created as modified',
              knex.raw(
                'coalesce(secret_revisions.created_by, resource_records.created_by) as modified_by',
              ),
              'secret_revisions.deleted',
            ),
        )
      : []
  return [...current, ...past].map((row) => revisionJson(row, withSecret))
}
