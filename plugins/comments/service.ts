// Comments through the query builder: the threads on a resource, a comment written, edited or
// removed by its author, and the comments of deleted resources removed with them. A reply's
// replies go with it (the foreign key cascades).
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { lockRows } from '../../api/db/transaction.ts'
import { formatTimestamp } from '../../api/envelope.ts'
import { badRequest } from '../../api/errors.ts'
import { executeStatement, selectRows } from '../../api/orm.ts'
import { messages } from './messages.ts'

interface Row {
  id: string
  parent_id: string | null
  foreign_key: string
  foreign_model: string
  content: string
  created: string
  modified: string
  created_by: string | null
  modified_by: string | null
  user_id: string
}

const COLUMNS = [
  'id',
  'parent_id',
  'foreign_key',
  'foreign_model',
  'content',
  'created',
  'modified',
  'created_by',
  'modified_by',
  'user_id',
]

/** The only kind of item passbolt comments on. */
const RESOURCE = 'Resource'

export const commentJson = (row: Row) => ({
  id: row.id,
  parent_id: row.parent_id,
  foreign_key: row.foreign_key,
  foreign_model: row.foreign_model,
  content: row.content,
  created: formatTimestamp(row.created),
  modified: formatTimestamp(row.modified),
  created_by: row.created_by,
  modified_by: row.modified_by,
  user_id: row.user_id,
})

export type CommentJson = ReturnType<typeof commentJson>

export type CommentThread = CommentJson & { children: CommentThread[] }

/**
 * The comments on a resource as passbolt threads them: the latest modified first at each level,
 * each with its replies under `children`.
 */
export const commentThreads = async (
  em: EntityManager,
  resourceId: string,
): Promise<CommentThread[]> => {
  const rows = await selectRows<Row>(em, (knex) =>
    knex('comments')
      .where({ foreign_model: RESOURCE, foreign_key: resourceId })
      .select(COLUMNS)
      .orderBy([
        { column: 'modified', order: 'desc' },
        { column: 'created', order: 'desc' },
        { column: 'id' },
      ]),
  )
  const nodes = new Map<string, CommentThread>(
    rows.map((row) => [row.id, { ...commentJson(row), children: [] }]),
  )
  const roots: CommentThread[] = []
  for (const row of rows) {
    const node = nodes.get(row.id)!
    const parent = row.parent_id ? nodes.get(row.parent_id) : undefined
    if (parent) parent.children.push(node)
    else roots.push(node)
  }
  return roots
}

/** Every comment of the threads, replies included. */
export const flattenThreads = (threads: CommentThread[]): CommentThread[] =>
  threads.flatMap((thread) => [thread, ...flattenThreads(thread.children)])

export const addComment = async (
  em: EntityManager,
  input: { userId: string; resourceId: string; content: string; parentId?: string | null },
): Promise<CommentJson> => {
  const { userId, resourceId, content, parentId } = input
  if (parentId) {
    // The parent must be a comment on the same resource; its row is locked against removal.
    const [parent] = await selectRows<{ id: string }>(em, (knex) =>
      knex('comments')
        .where({ id: parentId, foreign_model: RESOURCE, foreign_key: resourceId })
        .select('id')
        .forKeyShare(),
    )
    if (!parent)
      throw badRequest(messages.validation, {
        parent_id: { has_valid_parent_id: messages.parentExists },
      })
  }
  const now = new Date()
  const [row] = await selectRows<Row>(em, (knex) =>
    knex('comments')
      .insert({
        id: randomUUID(),
        parent_id: parentId ?? null,
        foreign_key: resourceId,
        foreign_model: RESOURCE,
        content,
        user_id: userId,
        created: now,
        modified: now,
        created_by: userId,
        modified_by: userId,
      })
      .returning(COLUMNS),
  )
  return commentJson(row)
}

/** A comment by id, its row locked until the transaction ends; undefined when there is none. */
export const lockComment = async (em: EntityManager, id: string) => {
  await lockRows(em, 'comments', [id])
  const [row] = await selectRows<Row>(em, (knex) => knex('comments').where({ id }).select(COLUMNS))
  return row ? commentJson(row) : undefined
}

export const updateComment = async (
  em: EntityManager,
  userId: string,
  id: string,
  content: string,
): Promise<CommentJson> => {
  const [row] = await selectRows<Row>(em, (knex) =>
    knex('comments')
      .where({ id })
      .update({ content, modified: new Date(), modified_by: userId })
      .returning(COLUMNS),
  )
  return commentJson(row)
}

export const deleteComment = (em: EntityManager, id: string) =>
  executeStatement(em, (knex) => knex('comments').where({ id }).delete())

/** Removes the comments of these resources (they are being deleted). */
export const deleteCommentsOf = async (em: EntityManager, resourceIds: readonly string[]) => {
  if (resourceIds.length === 0) return
  await executeStatement(em, (knex) =>
    knex('comments')
      .where('foreign_model', RESOURCE)
      .whereRaw('foreign_key = any(?::uuid[])', [`{${[...new Set(resourceIds)].join(',')}}`])
      .delete(),
  )
}
