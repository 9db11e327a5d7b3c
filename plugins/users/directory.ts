// The user directory's one statement: the users the caller may see (no guests, no deleted
// users; non-administrators see active users only), filtered and ordered as the clients ask and
// cut to the page on narrow rows; then the page alone gets its keys and memberships, and
// PostgreSQL writes each user as a JSON document (`user-document.ts`).
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import type { AuthUser } from '../../api/auth/user.ts'
import { DOCUMENT, LIST_TOTAL, readDocumentList } from '../../api/db/document-list.ts'
import { ListCache, type ListReads } from '../../api/db/list-cache.ts'
import {
  type CompiledQuery,
  compileQuery,
  parameterPlaceholder,
  runCompiled,
} from '../../api/db/prepared.ts'
import type { JsonRowBatches, Pagination } from '../../api/envelope.ts'
import { selectRows } from '../../api/orm.ts'
import { pluginState } from '../../api/plugin.ts'
import type { ParsedQuery } from '../../api/query.ts'
import { joinAvatar } from '../avatars/index.ts'
import { userDirectory } from './extensions.ts'
import { membershipText, userDocument } from './user-document.ts'

/** Sortable `Model.field` names (the first is the default order) and their columns. */
export const SORTABLE = {
  'Users.username': 'users.username',
  'Users.created': 'users.created',
  'Users.modified': 'users.modified',
  'Users.last_logged_in': 'users.last_logged_in',
  'Profiles.first_name': 'profiles.first_name',
  'Profiles.last_name': 'profiles.last_name',
  'Profiles.created': 'profiles.created',
  'Profiles.modified': 'profiles.modified',
} as const

const USER = [
  'id',
  'role_id',
  'username',
  'active',
  'deleted',
  'disabled',
  'created',
  'modified',
  'last_logged_in',
]
const PROFILE = ['id', 'first_name', 'last_name', 'created', 'modified']
const ROLE = ['name', 'description', 'created', 'modified']

const POSITION = '__position'
const ID = '__id'

/** Memberships of live groups of the page's users, one JSON list per user, aggregated once. */
const membershipsOfPage = (knex: Knex) =>
  knex('group_members')
    .join('group_records', 'group_records.id', 'group_members.group_id')
    .where('group_records.deleted', false)
    .whereIn('group_members.user_id', knex('page').select('id'))
    .groupBy('group_members.user_id')
    .select(
      'group_members.user_id',
      knex.raw(
        `'[' || string_agg(?, ',' order by group_members.created, group_members.id) || ']' as memberships`,
        [membershipText(knex)],
      ),
    )
    .as('memberships')

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

export interface DirectoryRequest {
  user: AuthUser
  contain: Record<string, boolean>
  filter: Record<string, unknown>
}

/**
 * The users this caller may see that match the filters, with the narrow columns the order and
 * the documents need (profile, avatar and role are one row each).
 */
const directoryQuery = async (
  knex: Knex,
  em: EntityManager,
  app: AppContext,
  request: DirectoryRequest,
) => {
  const { user, contain, filter } = request
  const query = knex('users')
    .join('roles', 'roles.id', 'users.role_id')
    .leftJoin('profiles', 'profiles.user_id', 'users.id')
    .where('users.deleted', false)
    .whereNot('roles.name', 'guest')
    .select(USER.map((column) => `users.${column}`))
  if (user.role !== 'admin') query.where('users.active', true)
  else if (typeof filter['is-active'] === 'boolean')
    query.where('users.active', filter['is-active'])
  if (typeof filter['is-admin'] === 'boolean')
    query.where('roles.name', filter['is-admin'] ? '=' : '<>', 'admin')
  const search = (filter.search as string[] | undefined)?.[0]
  if (search) {
    const like = `%${escapeLike(search)}%`
    query.where((where) =>
      where
        .whereILike('users.username', like)
        .orWhereILike('profiles.first_name', like)
        .orWhereILike('profiles.last_name', like),
    )
  }
  const groups = filter['has-groups'] as string[] | undefined
  if (groups?.length)
    // Members of every group listed.
    query.whereIn(
      'users.id',
      knex('group_members')
        .whereIn('group_id', [...new Set(groups)])
        .groupBy('user_id')
        .havingRaw('count(distinct group_id) = ?', [new Set(groups).size])
        .select('user_id'),
    )
  if (filter.ids) query.whereIn('users.id', filter.ids as string[])
  for (const [name, value] of Object.entries(filter))
    for (const hooks of userDirectory.of(app.plugins)) {
      const apply = hooks.filters?.[name]
      if (apply) await apply({ query, knex, value, user, em })
    }
  if (contain.profile) {
    query.select(PROFILE.map((column) => `profiles.${column} as profile_${column}`))
    joinAvatar(query)
  }
  if (contain.role) query.select(ROLE.map((column) => `roles.${column} as role_${column}`))
  // Wrapped: an async function returning the builder itself would run it.
  return { query }
}

export interface DirectoryPage {
  /** Each user as a JSON document, in order. */
  documents: string[]
  /** The users' ids, in the same order. */
  ids: string[]
  pagination: Pagination
}

type DocumentRow = {
  [DOCUMENT]: string
  [POSITION]: string
  [LIST_TOTAL]: string
  [ID]: string
}

/** The directory's statement for a request: the narrow page, then each user's document. */
export const directoryStatement = async (
  em: EntityManager,
  app: AppContext,
  request: DirectoryRequest & Pick<ParsedQuery, 'page' | 'limit' | 'order'>,
) => {
  const knex = em.getKnex()
  const { query } = await directoryQuery(knex, em, app, request)
  const orderBy = [
    ...request.order.map(({ field, direction }) => ({
      column: SORTABLE[field as keyof typeof SORTABLE],
      order: direction,
    })),
    { column: 'users.id', order: 'asc' as const },
  ]
  const ordered = query
    .clone()
    .select(knex.raw(`count(*) over () as ${LIST_TOTAL}`))
    .select(
      knex.raw(
        `row_number() over (order by ${orderBy.map((o) => `?? ${o.order === 'desc' ? 'desc' : 'asc'}`).join(', ')}) as ${POSITION}`,
        orderBy.map((o) => o.column),
      ),
    )
    .orderBy(orderBy)
  if (request.limit !== null)
    ordered.limit(request.limit).offset((request.page - 1) * request.limit)
  const statement = knex
    .with('page', ordered)
    .from('page')
    .select(
      `page.${POSITION}`,
      `page.${LIST_TOTAL}`,
      `page.id as ${ID}`,
      userDocument(knex, request.contain, app.config.appUrl),
    )
  if (request.contain.gpgkey)
    statement.leftJoin('gpgkeys', (on) =>
      on.on('gpgkeys.user_id', 'page.id').andOnVal('gpgkeys.deleted', false),
    )
  if (request.contain.groups_users)
    statement.leftJoin(membershipsOfPage(knex), 'memberships.user_id', 'page.id')
  // Wrapped: an async function returning the builder itself would run it.
  return { query, statement }
}

/**
 * The page of users the caller may see that match the request. The wide rows (armored keys)
 * are never sorted by PostgreSQL, which would spill a large page to disk: they carry their
 * position and are put back in order here.
 */
export const listUsers = async (
  em: EntityManager,
  app: AppContext,
  request: DirectoryRequest & Pick<ParsedQuery, 'page' | 'limit' | 'order'>,
): Promise<DirectoryPage> => {
  const { query, statement } = await directoryStatement(em, app, request)
  const rows = await selectRows<DocumentRow>(em, () => statement)
  rows.sort((a, b) => Number(a[POSITION]) - Number(b[POSITION]))
  let count = rows.length > 0 ? Number(rows[0][LIST_TOTAL]) : 0
  if (rows.length === 0 && request.page > 1) {
    const [counted] = await selectRows<{ count: string }>(em, (k) =>
      k.count({ count: '*' }).from(query.clone().as('listed')),
    )
    count = Number(counted.count)
  }
  return {
    documents: rows.map((row) => row.document),
    ids: rows.map((row) => row[ID]),
    pagination: { count, page: request.page, limit: request.limit },
  }
}

/**
 * `work_mem` of a streamed page's statement: PostgreSQL sorts the documents of a page of
 * thousands of users (12.6 MiB for 5,000 with their keys) in memory instead of in temporary
 * files, for the statement's life.
 */
const SORT_MEMORY = '32MB'

/**
 * The page of users the caller may see that match the request, as documents in order, read
 * from a cursor as the answer is written (`readDocumentList`): for requests whose contains
 * PostgreSQL writes whole (`listUsers` serves those that splice fields loaded in Node).
 */
export const streamUsers = async (
  em: EntityManager,
  app: AppContext,
  request: DirectoryRequest & Pick<ParsedQuery, 'page' | 'limit' | 'order'>,
): Promise<{ documents: JsonRowBatches; pagination: Pagination }> => {
  const pagination = (count: number) => ({ count, page: request.page, limit: request.limit })
  // Other plugins' filters may read tables of their own to shape the statement: those lists
  // are not kept.
  const keepable = Object.keys(request.filter).every((name) => CORE_FILTERS.has(name))
  const { user, contain, filter, page, limit, order } = request
  const key = JSON.stringify([user.id, user.role, contain, filter, page, limit, order])
  const { kept, keeper } = keepable ? keptLists.get(app).lookup(key) : {}
  if (kept) return { documents: kept.documents, pagination: pagination(kept.count) }
  const { query, statement } = await directoryStatement(em, app, request)
  const { documents, count } = await readDocumentList(em, statement.orderBy(`page.${POSITION}`), {
    countPastEnd: request.page > 1 ? () => query.clone() : undefined,
    workMem: SORT_MEMORY,
    keeper,
  })
  return { documents, pagination: pagination(count) }
}

/** The directory's own filters; each reads only `USER_LIST_TABLES`. */
const CORE_FILTERS = new Set(['is-active', 'is-admin', 'search', 'has-groups', 'ids'])

/**
 * Every table the directory statement reads with the core filters, for the list cache (a test
 * holds this to the statement's plans): a change to any of them may change a list.
 */
export const USER_LIST_TABLES = [
  'users',
  'roles',
  'profiles',
  'avatars',
  'gpgkeys',
  'groups_users',
  'groups',
]

/**
 * What a user's view reads: the user's own row, and the tables of what it shows with them. A
 * sign-in changes the row of the user who signs in (their last sign-in), so it leaves the views
 * of everyone else kept.
 */
const viewReads = (id: string): ListReads => ({
  tables: USER_LIST_TABLES.filter((table) => table !== 'users'),
  rows: { users: [id.toLowerCase()] },
})

/** The lists of each server, kept per caller and request until a table they read changes. */
const keptLists = pluginState<ListCache>('users.lists')

export const keepUserLists = (app: AppContext) =>
  keptLists.set(app, new ListCache(app.changes, USER_LIST_TABLES, app.config.listCacheSize))

/**
 * The view statement of each server, compiled once per caller role and set of contains and run
 * as a prepared statement: for one user, compiling the directory statement costs the server more
 * than PostgreSQL takes to run it (`GET /users/me.json` is among the calls clients make most).
 */
const viewStatements = new WeakMap<AppContext, Map<string, CompiledQuery>>()

/**
 * One user as the directory shows them to the caller, as JSON text, or undefined when hidden.
 * `kept`: the answer may be the one read last time for the same request, when nothing it shows
 * changed since (as the lists, `keepUserLists`); a request that changes the user must not say
 * so, as the change it is making is not yet seen by the cache.
 */
export const viewUserText = async (
  em: EntityManager,
  app: AppContext,
  request: DirectoryRequest & { id: string },
  options: { kept?: boolean } = {},
): Promise<string | undefined> => {
  const contains = Object.keys(request.contain)
    .filter((name) => request.contain[name])
    .sort()
  const { user, id } = request
  const { kept, keeper } = options.kept
    ? keptLists
        .get(app)
        .lookup(JSON.stringify(['view', user.id, user.role, id, contains]), viewReads(id))
    : {}
  if (kept) {
    const document = await kept.documents.next()
    return Buffer.isBuffer(document) ? document.toString() : undefined
  }
  const document = await readView(em, app, request, contains)
  if (document !== undefined) keeper?.add(Buffer.from(document))
  keeper?.finish(document === undefined ? 0 : 1)
  return document
}

/** One user as the directory shows them to the caller, or undefined when hidden. */
export const viewUser = async (
  em: EntityManager,
  app: AppContext,
  request: DirectoryRequest & { id: string },
): Promise<Record<string, unknown> | undefined> => {
  const document = await viewUserText(em, app, request)
  return document === undefined ? undefined : JSON.parse(document)
}

/** One user's document, through the statement compiled for the caller's role and contains. */
const readView = async (
  em: EntityManager,
  app: AppContext,
  request: DirectoryRequest & { id: string },
  contains: string[],
): Promise<string | undefined> => {
  if (!viewStatements.has(app)) viewStatements.set(app, new Map())
  const compiled = viewStatements.get(app)!
  const key = `${request.user.role === 'admin'}|${contains.join(',')}`
  let statement = compiled.get(key)
  if (!statement) {
    const built = await directoryStatement(em, app, {
      ...request,
      filter: { ids: [parameterPlaceholder(em.getKnex(), 0)] },
      page: 1,
      limit: 1,
      order: [],
    })
    statement = compileQuery(built.statement)
    compiled.set(key, statement)
  }
  const [row] = await runCompiled<DocumentRow>(em, statement, [request.id])
  return row?.document
}
