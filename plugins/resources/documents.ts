// The resources list written by PostgreSQL: each resource one JSON document in the shape
// `resourceJson` and the contain loaders give, the contains the clients send most (the
// extension's sync call, the permission tree) built in the same statement, so that a list of
// tens of megabytes is neither parsed nor stringified by the server, which sends it as it comes.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import type { Pagination } from '../../api/envelope.ts'
import {
  type JsonText,
  jsonLiteral,
  jsonObjectText,
  jsonPlainString,
  jsonRaw,
  jsonString,
} from '../../api/json-text.ts'
import { selectRows } from '../../api/orm.ts'
import type { ParsedQuery } from '../../api/query.ts'
import { favoriteObject, joinFavorite } from '../favorites/index.ts'
import { joinTreeColumns } from '../folder-tree/index.ts'
import { callerPermissionObject, permissionsOfItemsDocuments } from '../permissions/index.ts'
import { tagsOfResourcesDocuments } from '../tags/index.ts'
import { isoDate } from '../users/index.ts'
import { listQuery, type ResourceFilters, SORTABLE } from './query.ts'

/** The contains the documents carry; any other one sends the list through `resourceJson`. */
const WRITTEN = new Set([
  'permission',
  'favorite',
  'tag',
  'permissions',
  'permissions.user.profile',
  'permissions.group',
])

/** Whether the documents carry every contain in force. */
export const documentsCover = (contain: Readonly<Record<string, boolean>>) =>
  Object.entries(contain).every(([name, on]) => !on || WRITTEN.has(name))

const POSITION = '__position'
const TOTAL = '__total'

type Field = [string, JsonText]

/**
 * A row of `page` as one document, in JSON text: v5 resources answer their encrypted metadata,
 * v4 ones their clear fields, never both (as `putMetadataOrClearFields`), then the contains in
 * the order the route declares them.
 */
const resourceDocument = (
  knex: Knex,
  contain: Readonly<Record<string, boolean>>,
  tree: ReturnType<typeof joinTreeColumns>,
) => {
  const ref = (name: string) => knex.ref(`page.${name}`)
  const text = (name: string): Field => [name, jsonString(knex, ref(name))]
  const uuid = (name: string, notNull = false): Field => [
    name,
    jsonPlainString(knex, ref(name), { notNull }),
  ]
  const date = (name: string, notNull = false): Field => [
    name,
    jsonPlainString(knex, isoDate(knex, `page.${name}`), { notNull }),
  ]
  const rest: Field[] = [
    ['deleted', jsonLiteral(knex, ref('deleted'), { notNull: true })],
    date('created', true),
    date('modified', true),
    uuid('created_by'),
    uuid('modified_by'),
    uuid('resource_type_id', true),
    date('expired'),
    ['folder_parent_id', jsonPlainString(knex, tree.folderParentId)],
    ['personal', jsonLiteral(knex, tree.personal, { notNull: true })],
  ]
  if (contain.permission)
    rest.push(['permission', jsonRaw(callerPermissionObject(knex, 'Resource', 'page'))])
  if (contain.favorite) rest.push(['favorite', jsonRaw(favoriteObject(knex))])
  if (contain.tag) rest.push(['tags', jsonRaw(knex.raw(`coalesce(item_tags.tags, '[]')`))])
  if (contain.permissions)
    rest.push(['permissions', jsonRaw(knex.raw(`coalesce(item_permissions.permissions, '[]')`))])
  const id = uuid('id', true)
  const v4 = ['name', 'username', 'uri', 'description'].map(text)
  const v5 = [text('metadata'), uuid('metadata_key_id'), text('metadata_key_type')]
  return knex.raw('case when page.metadata is null then ? else ? end', [
    jsonObjectText(knex, [id, ...v4, ...rest]),
    jsonObjectText(knex, [id, ...v5, ...rest]),
  ])
}

export interface ResourceDocuments {
  /** Each resource as a JSON document, in the list's order. */
  documents: string[]
  pagination: Pagination
}

type DocumentRow = { document: string; [POSITION]: string; [TOTAL]: string }

/**
 * The page of resources the user can read that match the filters, as documents, in one
 * statement whatever the contains. The documents are not sorted by PostgreSQL, which would
 * spill tens of megabytes to disk: each carries its position and is put back in order here.
 */
export const selectResourceDocuments = async (
  em: EntityManager,
  userId: string,
  query: Pick<ParsedQuery, 'page' | 'limit' | 'order' | 'contain'>,
  filters: ResourceFilters,
  appUrl: string,
): Promise<ResourceDocuments> => {
  const { contain } = query
  const knex = em.getKnex()
  const build = () => listQuery(knex, userId, filters, Boolean(contain.permission), false)
  const orderBy = [
    ...query.order.map(({ field, direction }) => ({
      column: SORTABLE[field as keyof typeof SORTABLE],
      order: direction,
    })),
    { column: 'resources.id', order: 'asc' as const },
  ]
  const page = build()
    .select(knex.raw(`count(*) over () as ${TOTAL}`))
    .select(
      knex.raw(
        `row_number() over (order by ${orderBy.map((o) => `?? ${o.order === 'desc' ? 'desc' : 'asc'}`).join(', ')}) as ${POSITION}`,
        orderBy.map((o) => o.column),
      ),
    )
    .orderBy(orderBy)
  if (query.limit !== null) page.limit(query.limit).offset((query.page - 1) * query.limit)
  const pageIds = () => knex('page').select('page.id')
  const statement = knex.with('page', page).from('page')
  const tree = joinTreeColumns(statement, knex, userId, 'page.id')
  statement.select(
    `page.${POSITION}`,
    `page.${TOTAL}`,
    knex.raw('? as document', [resourceDocument(knex, contain, tree)]),
  )
  if (contain.favorite) joinFavorite(statement, userId, 'page.id')
  if (contain.tag)
    statement.leftJoin(
      tagsOfResourcesDocuments(knex, userId, pageIds()).as('item_tags'),
      'item_tags.resource_id',
      'page.id',
    )
  if (contain.permissions)
    statement.leftJoin(
      permissionsOfItemsDocuments(knex, pageIds(), {
        ...(contain['permissions.user.profile'] ? { users: 'profile' as const } : {}),
        groups: Boolean(contain['permissions.group']),
        appUrl,
      }).as('item_permissions'),
      'item_permissions.aco_foreign_key',
      'page.id',
    )
  const rows = await selectRows<DocumentRow>(em, () => statement)
  rows.sort((a, b) => Number(a[POSITION]) - Number(b[POSITION]))
  let count = rows.length > 0 ? Number(rows[0][TOTAL]) : 0
  if (rows.length === 0 && query.page > 1) {
    const [counted] = await selectRows<{ count: string }>(em, (k) =>
      k.count({ count: '*' }).from(build().as('listed')),
    )
    count = Number(counted.count)
  }
  return {
    documents: rows.map((row) => row.document),
    pagination: { count, page: query.page, limit: query.limit },
  }
}
