// The resources list written by PostgreSQL: each resource one JSON document in the shape
// `resourceJson` and the contain loaders give, the contains the clients send most (the
// extension's sync call, the permission tree) built in the same statement, so that a list of
// tens of megabytes is neither parsed nor stringified by the server, which sends it as it comes.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { DOCUMENT, LIST_TOTAL, readDocumentList } from '../../api/db/document-list.ts'
import { ListCache, type ListReads } from '../../api/db/list-cache.ts'
import type { JsonRowBatches, Pagination } from '../../api/envelope.ts'
import {
  type JsonText,
  jsonLiteral,
  jsonObjectText,
  jsonPlainString,
  jsonRaw,
  jsonString,
} from '../../api/json-text.ts'
import { pluginState } from '../../api/plugin.ts'
import type { ParsedQuery } from '../../api/query.ts'
import { favoriteObject, joinFavorite } from '../favorites/index.ts'
import { joinTreeColumns } from '../folder-tree/index.ts'
import { callerPermissionObject, permissionsOfItemsDocuments } from '../permissions/index.ts'
import { tagsOfResourcesDocuments } from '../tags/index.ts'
import { jsonDate } from '../users/index.ts'
import { listQuery, type ResourceFilters, SORTABLE } from './query.ts'

/** The contains the documents carry; any other one sends the list through `resourceJson`. */
export const WRITTEN = new Set([
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
    jsonDate(knex, `page.${name}`, { notNull }),
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

/**
 * `work_mem` of the documents' transaction: the sort of 10,000 documents with the permission
 * tree (47 MB) stays in memory instead of going through temporary files. It is PostgreSQL's
 * memory for the statement's life, per sort and hash (the server's default, 4 MB, is sized for
 * many small statements).
 */
const SORT_MEMORY = '64MB'

export interface ResourceDocuments {
  /** Each resource as a JSON document, in the list's order, a batch at a time. */
  documents: JsonRowBatches
  pagination: Pagination
}

/**
 * The statement writing the page of resources the user can read that match the filters, as
 * documents in the list's order, whatever the contains; and the list's own query, to count it.
 */
export const documentsStatement = (
  knex: Knex,
  userId: string,
  query: Pick<ParsedQuery, 'page' | 'limit' | 'order' | 'contain'>,
  filters: ResourceFilters,
  appUrl: string,
) => {
  const { contain } = query
  const build = () => listQuery(knex, userId, filters, Boolean(contain.permission), false)
  const orderBy = [
    ...query.order.map(({ field, direction }) => ({
      column: SORTABLE[field as keyof typeof SORTABLE],
      order: direction,
    })),
    { column: 'resources.id', order: 'asc' as const },
  ]
  const page = build()
    .select(knex.raw(`count(*) over () as ${LIST_TOTAL}`))
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
    `page.${LIST_TOTAL}`,
    knex.raw(`? as ${DOCUMENT}`, [resourceDocument(knex, contain, tree)]),
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
  // The documents are sent as they are read, so PostgreSQL must send them in order. It sorts
  // them whole (its planner postpones only volatile or, under a LIMIT, costly expressions past
  // a sort, and the contains' joined columns are most of the width): see `SORT_MEMORY`.
  statement.orderBy(`page.${POSITION}`)
  return { statement, build }
}

/**
 * What a list reads, for the list cache (a test holds these to the statement's plans): a change
 * to one of its tables may change the list, a change to another cannot. The tables behind each
 * user's list name the users whose lists a change may alter (the `ListReaders` migration): of
 * those, a list reads its caller's share alone, so another member's new password, favourite or
 * share leaves it kept. The extension's sync call reads no user, profile or avatar, so a sign-in
 * or a profile edit leaves it kept too.
 */
const READER_TABLES = [
  'resources',
  'permissions',
  'groups_users',
  'folders_relations',
  'favorites',
  'resources_tags',
] as const
const LIST_BASE_TABLES = ['resource_types', 'groups']
const TAG_TABLES = ['tags']
const HOLDER_PROFILE_TABLES = ['users', 'profiles', 'avatars']

export const resourceListReads = (
  userId: string,
  contain: Readonly<Record<string, boolean>>,
  filters: ResourceFilters,
): ListReads => {
  const tagged = contain.tag || filters.tag !== undefined
  const readers = READER_TABLES.filter(
    (table) =>
      (table !== 'favorites' || contain.favorite || filters.favorite !== undefined) &&
      (table !== 'resources_tags' || tagged),
  )
  return {
    tables: [
      ...LIST_BASE_TABLES,
      ...(tagged ? TAG_TABLES : []),
      ...(contain['permissions.user.profile'] ? HOLDER_PROFILE_TABLES : []),
    ],
    rows: Object.fromEntries(readers.map((table) => [table, [userId.toLowerCase()]])),
  }
}

/** Every table a list may read. */
export const RESOURCE_LIST_TABLES = [
  ...READER_TABLES,
  ...LIST_BASE_TABLES,
  ...TAG_TABLES,
  ...HOLDER_PROFILE_TABLES,
]

/** The lists of each server, kept per caller and request until a table they read changes. */
const keptLists = pluginState<ListCache>('resources.lists')

export const keepResourceLists = (app: AppContext) =>
  keptLists.set(app, new ListCache(app.changes, RESOURCE_LIST_TABLES, app.config.listCacheSize))

/**
 * The page of resources the user can read that match the filters, as documents read from a
 * cursor in one snapshot (`readDocumentList`), or as they were read last time when nothing they
 * show has changed since.
 */
export const selectResourceDocuments = async (
  em: EntityManager,
  app: AppContext,
  userId: string,
  query: Pick<ParsedQuery, 'page' | 'limit' | 'order' | 'contain'>,
  filters: ResourceFilters,
): Promise<ResourceDocuments> => {
  const pagination = (count: number) => ({ count, page: query.page, limit: query.limit })
  const key = JSON.stringify([userId, query.page, query.limit, query.order, query.contain, filters])
  const { kept, keeper } = keptLists
    .get(app)
    .lookup(key, resourceListReads(userId, query.contain, filters))
  if (kept) return { documents: kept.documents, pagination: pagination(kept.count) }
  const knex = em.getKnex()
  const { statement, build } = documentsStatement(knex, userId, query, filters, app.config.appUrl)
  const { documents, count } = await readDocumentList(em, statement, {
    countPastEnd: query.page > 1 ? build : undefined,
    workMem: SORT_MEMORY,
    keeper,
  })
  return { documents, pagination: pagination(count) }
}
