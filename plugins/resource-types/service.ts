// Resource types through the query builder: the list (with the count of live resources of each
// type for administrators), one type, and soft deletion with passbolt's guards.
import type { EntityManager } from '@mikro-orm/postgresql'
import { formatTimestamp } from '../../api/envelope.ts'
import { badRequest, notFound } from '../../api/errors.ts'
import { selectRows } from '../../api/orm.ts'
import { UNLISTED_SLUGS, versionOfSlug } from './definitions.ts'
import { ResourceTypeSchema } from './entities/ResourceType.ts'
import { messages } from './messages.ts'

interface Row {
  id: string
  slug: string
  name: string
  description: string | null
  definition: Record<string, unknown> | string
  deleted: string | null
  created: string
  modified: string
  resources_count?: string
}

const COLUMNS = [
  'id',
  'slug',
  'name',
  'description',
  'definition',
  'deleted',
  'created',
  'modified',
]

const serialize = (row: Row) => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  description: row.description,
  definition: typeof row.definition === 'string' ? JSON.parse(row.definition) : row.definition,
  deleted: formatTimestamp(row.deleted),
  created: formatTimestamp(row.created),
  modified: formatTimestamp(row.modified),
  ...(row.resources_count !== undefined ? { resources_count: Number(row.resources_count) } : {}),
})

export type ResourceTypeJson = ReturnType<typeof serialize>

/** `all`: also the types a community edition does not list (resources may still use them). */
export const listResourceTypes = async (
  em: EntityManager,
  options: { deleted: boolean; resourcesCount: boolean; all?: boolean },
) => {
  const rows = await selectRows<Row>(em, (knex) => {
    const query = knex('resource_types')
      .select(COLUMNS.map((column) => `resource_types.${column}`))
      .whereNotIn('resource_types.slug', options.all ? [] : UNLISTED_SLUGS)
      .where((where) =>
        options.deleted
          ? where.whereNotNull('resource_types.deleted')
          : where.whereNull('resource_types.deleted'),
      )
      .orderBy('resource_types.slug')
    if (options.resourcesCount)
      query.select(
        knex('resource_records')
          .count('*')
          .where('resource_records.resource_type_id', knex.ref('resource_types.id'))
          .andWhere('resource_records.deleted', false)
          .as('resources_count'),
      )
    return query
  })
  return rows.map(serialize)
}

export const findResourceType = async (em: EntityManager, id: string) => {
  const [row] = await selectRows<Row>(em, (knex) =>
    knex('resource_types').where('id', id).select(COLUMNS),
  )
  return row ? serialize(row) : undefined
}

/** Types live resources can be created with, by id. */
export const liveResourceTypes = async (em: EntityManager) => {
  const rows = await selectRows<{ id: string; slug: string }>(em, (knex) =>
    knex('resource_types').whereNull('deleted').select('id', 'slug'),
  )
  return new Map(rows.map((row) => [row.id, row.slug]))
}

export const deleteResourceType = async (em: EntityManager, id: string) => {
  const type = await findResourceType(em, id)
  if (!type) throw notFound('resource type')
  if (type.deleted) throw badRequest(messages.alreadyDeleted)
  const live = await selectRows<{ slug: string }>(em, (knex) =>
    knex('resource_types').whereNull('deleted').whereNot('id', id).select('slug'),
  )
  // The organisation's default metadata version is v4 until encrypted metadata is configured.
  const version = versionOfSlug(type.slug)
  if (version === 'v4' && !live.some((other) => versionOfSlug(other.slug) === 'v4'))
    throw badRequest(messages.lastOfDefaultVersion)
  if (live.length === 0) throw badRequest(messages.lastOne)
  const [{ count }] = await selectRows<{ count: string }>(em, (knex) =>
    knex('resource_records').where({ resource_type_id: id, deleted: false }).count({ count: '*' }),
  )
  if (Number(count) > 0) throw badRequest(messages.stillUsed)
  await em.nativeUpdate(ResourceTypeSchema, { id }, { deleted: new Date(), modified: new Date() })
}

export const restoreResourceType = async (em: EntityManager, id: string) => {
  const type = await findResourceType(em, id)
  if (!type) throw notFound('resource type')
  if (!type.deleted) throw badRequest(messages.notDeleted)
  await em.nativeUpdate(ResourceTypeSchema, { id }, { deleted: null, modified: new Date() })
}
