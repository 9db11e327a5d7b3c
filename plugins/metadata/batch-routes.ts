// The administrators' upgrade (v4 to v5) and key rotation batches over one kind of item, the
// same for resources and folders: each page is the first of what is left to do, by id; each
// batch is one transaction that checks (and locks) every item before writing any. The plugin
// that owns the items' table declares the routes with what differs: its table, how an upgraded
// row changes type, how a row is listed.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import { z } from 'zod'
import { lockRows } from '../../api/db/transaction.ts'
import { HttpError } from '../../api/errors.ts'
import { executeStatement, selectRows } from '../../api/orm.ts'
import { defineRoute, Reply } from '../../api/plugin.ts'
import type { QueryOptions } from '../../api/query.ts'
import {
  asBatchError,
  assertNotStale,
  BATCH_PAGE_SIZE,
  type BatchItem,
  batchBody,
  batchMessages,
  MAX_BATCH,
  parseBatch,
} from './batch.ts'
import { checkItemMetadata, v5Fields } from './items.ts'

export type BatchKind = 'upgrade' | 'rotate'

/** The columns every batch reads of an item, whatever else its table has. */
export interface BatchRow {
  id: string
  metadata: string | null
  metadata_key_type: string | null
  modified: string
  modified_by: string | null
}

/** What differs between the items a batch carries. */
export interface BatchTarget<Row extends BatchRow> {
  /** The items' table; the plugin that owns it declares the routes. */
  table: 'resources' | 'folders'
  /** The ids of the shared items (the permissions plugin answers it). */
  sharedIds: (knex: Knex) => Knex.QueryBuilder
  /** `Resources`, `Folders`: the paths, passbolt's controller names and the docs. */
  noun: 'Resources' | 'Folders'
  /** What a v4 item is, for the docs, e.g. "v4 folders (clear names)". */
  v4Items: string
  /** The columns listed and checked, unqualified. */
  columns: readonly string[]
  /** Narrows the rows considered to live ones (may join). */
  scope?: (query: Knex.QueryBuilder) => void
  /** 400 message heading a refused item. */
  validationMessage: string
  /**
   * The per-kind field check of an upgrade: what else an upgraded row takes besides its
   * metadata (clear fields emptied, a v5 type), or undefined when it has no v5 form. Prepared
   * once per batch.
   */
  prepareUpgrade: (em: EntityManager) => Promise<(row: Row) => Record<string, unknown> | undefined>
  /** A row as the pages list it. */
  json: (row: Row) => Record<string, unknown>
  /** An item of a page, for the response schema. */
  itemSchema: z.ZodType
  /** The query options of the upgrade page (its `contain[permissions]`). */
  upgradeQuery: QueryOptions
}

const qualified = (target: BatchTarget<never>) =>
  target.columns.map((column) => `${target.table}.${column}`)

/** Rows whose metadata key the rotation leaves behind: shared and expired. */
const onExpiredKey = (knex: Knex, table: string, query: Knex.QueryBuilder) =>
  query
    .where(`${table}.metadata_key_type`, 'shared_key')
    .whereIn(`${table}.metadata_key_id`, knex('metadata_keys').select('id').whereNotNull('expired'))

const pageReply = async <Row extends BatchRow>(
  em: EntityManager,
  target: BatchTarget<Row>,
  kind: BatchKind,
  shared: boolean | undefined,
) => {
  const { table } = target
  const rows = await selectRows<Row & { total: string }>(em, (knex) => {
    const query = knex(table)
      .select(qualified(target as never))
      .select(knex.raw('count(*) over () as total'))
      .orderBy(`${table}.id`)
      .limit(BATCH_PAGE_SIZE)
    target.scope?.(query)
    if (kind === 'upgrade') query.whereNull(`${table}.metadata`)
    else onExpiredKey(knex, table, query)
    if (shared !== undefined)
      query[shared ? 'whereIn' : 'whereNotIn'](`${table}.id`, target.sharedIds(knex))
    return query
  })
  return new Reply(rows.map(target.json), {
    pagination: { count: Number(rows[0]?.total ?? 0), page: 1, limit: BATCH_PAGE_SIZE },
  })
}

/** Applies one batch: every item checked (and locked) first, then written. */
const applyBatch = async <Row extends BatchRow>(
  em: EntityManager,
  target: BatchTarget<Row>,
  kind: BatchKind,
  userId: string,
  items: BatchItem[],
) => {
  const { table } = target
  await lockRows(
    em,
    table,
    items.map((item) => item.id),
  )
  const rows = await selectRows<Row & { key_expired: string | null }>(em, (knex) => {
    const query = knex(table)
      .leftJoin('metadata_keys', 'metadata_keys.id', `${table}.metadata_key_id`)
      .whereIn(
        `${table}.id`,
        items.map((item) => item.id),
      )
      .select(qualified(target as never))
      .select('metadata_keys.expired as key_expired')
    target.scope?.(query)
    return query
  })
  const current = new Map(rows.map((row) => [row.id, row]))
  const upgraded = kind === 'upgrade' ? await target.prepareUpgrade(em) : undefined
  const updates: { id: string; fields: Record<string, unknown> }[] = []
  for (const [index, item] of items.entries()) {
    const row = current.get(item.id)
    const pending =
      row &&
      (kind === 'upgrade'
        ? row.metadata === null
        : row.metadata_key_type === 'shared_key' && row.key_expired !== null)
    if (!row || !pending) throw new HttpError(404, batchMessages.notFound(item.id))
    let fields: Record<string, unknown>
    try {
      const metadata = v5Fields(item, [])
      if (kind === 'rotate' && metadata.metadata_key_type !== 'shared_key')
        throw new HttpError(400, target.validationMessage, {
          metadata_key_type: { isSharedKey: 'The metadata key type should be shared_key.' },
        })
      metadata.metadata_key_id = await checkItemMetadata(em, metadata, {}, target.validationMessage)
      fields = { ...metadata }
    } catch (error) {
      throw asBatchError(error, index, item.id)
    }
    assertNotStale(item, row)
    if (upgraded) {
      const more = upgraded(row)
      if (!more) throw new HttpError(404, batchMessages.notFound(item.id))
      Object.assign(fields, more)
    }
    updates.push({ id: item.id, fields })
  }
  const now = new Date()
  for (const { id, fields } of updates)
    await executeStatement(em, (knex) =>
      knex(table)
        .where({ id })
        .update({ ...fields, modified: now, modified_by: userId }),
    )
}

/** The four batch routes of one kind of item: the upgrade and rotation pages and posts. */
export const defineMetadataBatchRoutes = <Row extends BatchRow>(target: BatchTarget<Row>) =>
  (['upgrade', 'rotate'] as const).flatMap((kind) => {
    const { noun } = target
    const lower = noun.toLowerCase()
    const path = `/metadata/${kind === 'upgrade' ? 'upgrade' : 'rotate-key'}/${lower}.json`
    const controller = `Metadata${kind === 'upgrade' ? 'Upgrade' : 'RotateKey'}${noun}`
    const query = kind === 'upgrade' ? target.upgradeQuery : {}
    const what =
      kind === 'upgrade' ? target.v4Items : `v5 ${lower} whose shared metadata key is expired`
    const page = (em: EntityManager, parsed: { filter: Record<string, unknown> }) =>
      pageReply(em, target, kind, parsed.filter['is-shared'] as boolean | undefined)
    return [
      defineRoute({
        method: 'GET',
        path,
        action: `${controller}Index.index`,
        summary:
          kind === 'upgrade'
            ? `${noun} left to upgrade to v5`
            : `${noun} left to move to the new metadata key`,
        description: `The first ${BATCH_PAGE_SIZE} ${what}, by id, whoever can read them; \`pagination.count\` says how many are left.${kind === 'upgrade' ? ' `filter[is-shared]` keeps the shared ones (or the others), `contain[permissions]` adds their permissions.' : ''}`,
        auth: 'admin',
        // Administrators only, by auth: the batch covers every item of the organisation.
        permission: 'none',
        query,
        response: z.array(target.itemSchema),
        handler: ({ em, query: parsed }) => page(em, parsed),
      }),
      defineRoute({
        method: 'POST',
        path,
        action: `${controller}Post.post`,
        summary:
          kind === 'upgrade' ? `Upgrade ${lower} to v5` : `Move ${lower} to the new metadata key`,
        description: `Writes up to ${MAX_BATCH} items \`{id, metadata, metadata_key_id, metadata_key_type, modified, modified_by}\` in one transaction${kind === 'upgrade' ? ', each v4 item taking its v5 form' : ', each to a live shared key'}, then answers the next page. 404 for an item not left to do, 400 (keyed by index) for metadata not encrypted to the key it names, 409 when an item changed since the client read it (\`modified\` to the second, \`modified_by\`).`,
        auth: 'admin',
        // Administrators only, by auth: the batch covers every item of the organisation.
        permission: 'none',
        query,
        body: batchBody,
        response: z.array(target.itemSchema),
        transaction: true,
        handler: async ({ em, body, user, query: parsed }) => {
          await applyBatch(em, target, kind, user.id, parseBatch(body))
          return page(em, parsed)
        },
      }),
    ]
  })
