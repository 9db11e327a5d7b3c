// Tags through the query builder. A shared tag (`#name`) is one row per slug, linked to resources
// without a user, and seen by everyone who can read them; a personal tag is one row per user and
// slug (unique keys), linked with that user. Tags nobody links any more are removed. A change
// locks the rows of the tags whose links it adds or removes (made first when missing) before it
// touches those links, and removes a tag only under that lock, after its own links changed: a
// change linking a tag and one removing its last link thus queue up on the tag's row, and the
// second sees what the first did.
import { randomUUID } from 'node:crypto'
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import { lockRows, runInTransaction } from '../../api/db/transaction.ts'
import { badRequest, messages as coreMessages, HttpError, notFound } from '../../api/errors.ts'
import { jsonLiteral, jsonObjectText, jsonPlainString, jsonString } from '../../api/json-text.ts'
import { executeStatement, selectRows } from '../../api/orm.ts'
import { ErrorTree } from '../../api/validation.ts'
import { readableBy, usersWithAccessQuery } from '../permissions/index.ts'
import { readOrganizationSetting } from '../settings/index.ts'
import { messages } from './messages.ts'
import { isSharedSlug, type RequestedTags } from './schemas.ts'

interface TagRow {
  id: string
  slug: string
  is_shared: boolean
}

const COLUMNS = ['tags.id', 'tags.slug', 'tags.is_shared']

/** A v4 tag as passbolt answers it. */
export const tagJson = (row: TagRow) => ({ id: row.id, slug: row.slug, is_shared: row.is_shared })

export type TagJson = ReturnType<typeof tagJson>

/** Ids as one PostgreSQL array value, so a list of any length is a single binding. */
export const idArray = (ids: Iterable<string>) => `{${[...new Set(ids)].join(',')}}`

/** The tag's links the user sees: their own and the shared ones. */
const seenBy = (userId: string) => (query: Knex.QueryBuilder) =>
  query.where('resources_tags.user_id', userId).orWhereNull('resources_tags.user_id')

/** The tags the user sees on live resources they can read, those of `ids` only when given. */
const tagsSeenBy = (em: EntityManager, userId: string, ids?: readonly string[]) =>
  selectRows<TagRow>(em, (knex) => {
    const query = knex('tags')
      .distinct(COLUMNS)
      .join('resources_tags', 'resources_tags.tag_id', 'tags.id')
      .join('resource_records', 'resource_records.id', 'resources_tags.resource_id')
      .join(
        readableBy(knex, userId, 'Resource').as('access'),
        'access.aco_foreign_key',
        'resource_records.id',
      )
      .where('resource_records.deleted', false)
      .whereNotNull('tags.slug')
      .where(seenBy(userId))
      .orderBy([{ column: 'tags.slug' }, { column: 'tags.id' }])
    if (ids) query.whereIn('tags.id', ids)
    return query
  })

/** The tags on live resources the user can read: their personal tags and the shared ones. */
export const listTags = async (em: EntityManager, userId: string) =>
  (await tagsSeenBy(em, userId)).map(tagJson)

/**
 * `(resource_id, tags)`: the tags the user sees on each resource `ids` selects, one JSON list a
 * resource, written by PostgreSQL as text (resources without tags have no row).
 */
export const tagsOfResourcesDocuments = (knex: Knex, userId: string, ids: Knex.QueryBuilder) => {
  // Each tag written once, not once a resource it is on: `offset 0` keeps PostgreSQL from
  // folding the subquery into the join, which would write the tag again for every row.
  const tagDocuments = knex('tags')
    .whereNotNull('tags.slug')
    .select(
      'tags.id',
      'tags.slug',
      knex.raw('? as document', [
        jsonObjectText(knex, [
          ['id', jsonPlainString(knex, knex.ref('tags.id'), { notNull: true })],
          ['slug', jsonString(knex, knex.ref('tags.slug'))],
          ['is_shared', jsonLiteral(knex, knex.ref('tags.is_shared'), { notNull: true })],
        ]),
      ]),
    )
  return knex('resources_tags')
    .join(
      knex.raw('(? offset 0) as tag_documents', [tagDocuments]),
      'tag_documents.id',
      'resources_tags.tag_id',
    )
    .whereIn('resources_tags.resource_id', ids)
    .where(seenBy(userId))
    .groupBy('resources_tags.resource_id')
    .select(
      'resources_tags.resource_id',
      knex.raw(
        `'[' || string_agg(tag_documents.document, ',' order by tag_documents.slug, tag_documents.id) || ']' as tags`,
      ),
    )
}

/** The tags the user sees on each of these resources (one query), by resource id. */
export const tagsOfResources = async (
  em: EntityManager,
  userId: string,
  resourceIds: readonly string[],
): Promise<Map<string, TagJson[]>> => {
  if (resourceIds.length === 0) return new Map()
  // One row a resource, its tags built by PostgreSQL: far fewer rows for the driver to read.
  const rows = await selectRows<{ resource_id: string; tags: TagJson[] | string }>(em, (knex) =>
    tagsOfResourcesDocuments(
      knex,
      userId,
      knex.select(knex.raw('unnest(?::uuid[])', [idArray(resourceIds)])),
    ),
  )
  return new Map(
    rows.map((row) => {
      const tags = typeof row.tags === 'string' ? (JSON.parse(row.tags) as TagJson[]) : row.tags
      return [row.resource_id, tags]
    }),
  )
}

/**
 * Tags by id that the user may put on a resource: those they see (their own, and shared ones on
 * resources they read). Slug by id.
 */
const usableTags = async (em: EntityManager, userId: string, ids: string[]) =>
  new Map((await tagsSeenBy(em, userId, ids)).map((row) => [row.id, row.slug]))

/** The user's link to a tag, for `whereExists`. */
const linkedBy = (knex: Knex, userId: string) =>
  knex('resources_tags')
    .select(knex.raw('1'))
    .whereRaw('resources_tags.tag_id = tags.id')
    .where('resources_tags.user_id', userId)

/** The tag of each of these slugs the user links: the shared one (`#…`), or their own one. */
const tagsOfSlugs = (em: EntityManager, userId: string, slugs: readonly string[]) =>
  selectRows<TagRow>(em, (knex) =>
    knex('tags')
      .where((query) =>
        query
          .where((shared) =>
            shared.where('tags.is_shared', true).whereIn('tags.slug', slugs.filter(isSharedSlug)),
          )
          .orWhere((own) =>
            own.where({ 'tags.is_shared': false, 'tags.user_id': userId }).whereIn(
              'tags.slug',
              slugs.filter((slug) => !isSharedSlug(slug)),
            ),
          ),
      )
      .select(COLUMNS),
  )

/**
 * The tags of these slugs the user links (their own personal tags and the shared ones), made
 * when missing, and locked (`FOR UPDATE`, in id order, with the tags of `alsoLock`) so that
 * no change removes them before this one ends. A tag removed between finding and locking it is
 * made again; inserts go in slug order, so two changes making the same tags wait for each other
 * instead of deadlocking. Returns the tags by slug, and which of `alsoLock` exist.
 */
const claimTags = async (
  em: EntityManager,
  userId: string,
  slugs: readonly string[],
  alsoLock: readonly string[] = [],
) => {
  let pending = [...new Set(slugs)].sort()
  const claimed = new Map<string, TagRow>()
  let existing: Set<string> | undefined
  for (let round = 0; round < 3; round++) {
    if (pending.length) {
      const now = new Date()
      await executeStatement(em, (knex) =>
        knex('tags')
          .insert(
            pending.map((slug) => {
              const shared = isSharedSlug(slug)
              return {
                id: randomUUID(),
                slug,
                is_shared: shared,
                user_id: shared ? null : userId,
                created: now,
              }
            }),
          )
          .onConflict()
          .ignore(),
      )
    }
    const rows = pending.length ? await tagsOfSlugs(em, userId, pending) : []
    const locked = await lockRows(em, 'tags', [
      ...(existing ? [] : alsoLock),
      ...rows.map((row) => row.id),
    ])
    existing ??= new Set(alsoLock.filter((id) => locked.has(id)))
    for (const row of rows) if (locked.has(row.id)) claimed.set(row.slug, row)
    pending = pending.filter((slug) => !claimed.has(slug))
    if (pending.length === 0) return { claimed, existing }
  }
  throw new HttpError(409, coreMessages.concurrentChange)
}

/**
 * Removes, among these tags, those no resource is tagged with any more. The caller holds their
 * rows' locks and has made its own changes to their links: a change still linking one holds
 * that lock too, so this statement, begun after the lock was granted, sees its links.
 */
const deleteUnusedTags = async (em: EntityManager, tagIds: readonly string[]) => {
  if (tagIds.length === 0) return
  await executeStatement(em, (knex) =>
    knex('tags')
      .whereRaw('tags.id = any(?::uuid[])', [idArray(tagIds)])
      .whereNotExists(
        knex('resources_tags').select(knex.raw('1')).whereRaw('resources_tags.tag_id = tags.id'),
      )
      .delete(),
  )
}

/**
 * Deletes links (the query given) and then the tags they leave unused, in one transaction. The
 * tags are locked only when there are links to delete, and before deleting them, so that deleting
 * untagged resources never waits for tag changes. A link that a concurrent rename moved to
 * another tag meanwhile is deleted too; its tag is locked after, before it is looked at.
 */
const unlink = (em: EntityManager, links: (knex: Knex) => Knex.QueryBuilder) =>
  runInTransaction(em, async (tx) => {
    const linked = await selectRows<{ tag_id: string }>(tx, (knex) =>
      links(knex).distinct('resources_tags.tag_id'),
    )
    if (linked.length === 0) return
    const tagIds = new Set(linked.map((row) => row.tag_id))
    await lockRows(tx, 'tags', [...tagIds])
    const removed = new Set(
      (
        await selectRows<{ tag_id: string }>(tx, (knex) => links(knex).delete().returning('tag_id'))
      ).map((row) => row.tag_id),
    )
    const late = [...removed].filter((id) => !tagIds.has(id))
    if (late.length) await lockRows(tx, 'tags', late)
    await deleteUnusedTags(tx, [...removed])
  })

/** The part of the organisation's metadata types settings about tags. */
interface TagFormats {
  allow_creation_of_v4_tags: boolean
}

/**
 * Refuses the tag formats the organisation's metadata settings do not allow. v5 (encrypted) tags
 * are refused in any case: the server does not keep them yet.
 */
export const assertTagFormatAllowed = async (em: EntityManager, encrypted: boolean) => {
  if (encrypted) throw badRequest(messages.v5Refused)
  const settings = await readOrganizationSetting<Partial<TagFormats>>(em, 'metadataTypes')
  if (settings?.allow_creation_of_v4_tags === false) throw badRequest(messages.v4Refused)
}

/**
 * Replaces the tags the user sees on a resource by the requested ones: their personal tags, and
 * the shared ones when they own it (otherwise the shared tags must stay as they are). Returns the
 * resource's tags as the user now sees them.
 */
export const replaceResourceTags = async (
  em: EntityManager,
  input: { userId: string; resourceId: string; owner: boolean; requested: RequestedTags },
): Promise<TagJson[]> => {
  const { userId, resourceId, owner, requested } = input
  const wanted = new Set(requested.slugs.map((item) => item.slug))
  if (requested.ids.length) {
    const usable = await usableTags(
      em,
      userId,
      requested.ids.map((item) => item.id),
    )
    const errors = new ErrorTree()
    for (const { index, id } of requested.ids) {
      const slug = usable.get(id)
      if (slug === undefined) errors.add([index, 'id'], 'tagExists', messages.tagIdUnknown)
      else wanted.add(slug)
    }
    if (!errors.empty) throw badRequest(messages.requestValidation, errors.tree)
  }
  const current = await selectRows<{ tag_id: string } & TagRow>(em, (knex) =>
    knex('resources_tags')
      .join('tags', 'tags.id', 'resources_tags.tag_id')
      .where('resources_tags.resource_id', resourceId)
      .where(seenBy(userId))
      .whereNotNull('tags.slug')
      .select('tags.id as tag_id', 'tags.slug', 'tags.is_shared'),
  )
  const removed = current.filter((link) => !wanted.has(link.slug))
  const present = new Set(current.map((link) => link.slug))
  const added = [...wanted].filter((slug) => !present.has(slug))
  if (!owner && (removed.some((link) => link.is_shared) || added.some(isSharedSlug)))
    throw badRequest(messages.sharedOnResource)
  if (removed.length || added.length) {
    const removedIds = removed.map((link) => link.tag_id)
    const { claimed } = await claimTags(em, userId, added, removedIds)
    // By tag rather than by link: the tags are locked, so their links on the resource are the
    // ones read above, unless a rename moved one to another tag before the lock (it stays).
    if (removed.length)
      await executeStatement(em, (knex) =>
        knex('resources_tags')
          .where('resource_id', resourceId)
          .whereRaw('tag_id = any(?::uuid[])', [idArray(removedIds)])
          .where(seenBy(userId))
          .delete(),
      )
    if (claimed.size) {
      const now = new Date()
      await executeStatement(em, (knex) =>
        knex('resources_tags')
          .insert(
            [...claimed.values()].map((tag) => ({
              id: randomUUID(),
              resource_id: resourceId,
              tag_id: tag.id,
              user_id: tag.is_shared ? null : userId,
              created: now,
            })),
          )
          .onConflict()
          .ignore(),
      )
    }
    await deleteUnusedTags(em, removedIds)
  }
  return (await tagsOfResources(em, userId, [resourceId])).get(resourceId) ?? []
}

/** A tag, and whether the user tags anything with it; undefined when it does not exist. */
export const findTag = async (em: EntityManager, userId: string, id: string) => {
  const [row] = await selectRows<TagRow & { mine: boolean }>(em, (knex) =>
    knex('tags')
      .where('tags.id', id)
      .whereNotNull('tags.slug')
      .select(...COLUMNS, knex.raw('exists(?) as mine', [linkedBy(knex, userId)])),
  )
  return row
}

/**
 * Renames the user's personal tag: their links move to their tag of that slug, made if they
 * have none (passbolt answers that tag, so the id may change).
 */
export const renamePersonalTag = async (
  em: EntityManager,
  userId: string,
  tag: TagJson,
  slug: string,
): Promise<TagJson> => {
  if (slug === tag.slug) return tag
  const { claimed, existing } = await claimTags(em, userId, [slug], [tag.id])
  // The tag was read before its lock: it may have gone, or lost this user's links, meanwhile.
  if (!existing.has(tag.id) || !(await findTag(em, userId, tag.id))?.mine) throw notFound('tag')
  const target = claimed.get(slug) as TagRow
  await executeStatement(em, (knex) =>
    knex('resources_tags')
      .where({ tag_id: tag.id, user_id: userId })
      .whereNotIn(
        'resource_id',
        knex('resources_tags').select('resource_id').where({ tag_id: target.id, user_id: userId }),
      )
      .update({ tag_id: target.id }),
  )
  await executeStatement(em, (knex) =>
    knex('resources_tags').where({ tag_id: tag.id, user_id: userId }).delete(),
  )
  await deleteUnusedTags(em, [tag.id])
  return tagJson(target)
}

/** Removes the user's personal tag from every resource they tagged with it. */
export const deletePersonalTag = (em: EntityManager, userId: string, tagId: string) =>
  unlink(em, (knex) => knex('resources_tags').where({ tag_id: tagId, user_id: userId }))

/** Removes every tag of these resources (they are being deleted). */
export const deleteTagsOfResources = async (em: EntityManager, resourceIds: readonly string[]) => {
  if (resourceIds.length === 0) return
  await unlink(em, (knex) =>
    knex('resources_tags').whereRaw('resource_id = any(?::uuid[])', [idArray(resourceIds)]),
  )
}

/** Removes the personal tags these users put on a resource they can no longer read. */
export const forgetTagsOfLostAccess = async (
  em: EntityManager,
  resourceId: string,
  userIds: readonly string[],
) => {
  if (userIds.length === 0) return
  await unlink(em, (knex) =>
    knex('resources_tags')
      .where('resource_id', resourceId)
      .whereRaw('user_id = any(?::uuid[])', [idArray(userIds)])
      .whereNotIn('user_id', usersWithAccessQuery(knex, 'Resource', resourceId)),
  )
}

/**
 * Removes the personal tags of users on resources they lost (pairs), when they can no longer
 * read them, for many resources at once.
 */
export const forgetTagsOfLostPairs = async (
  em: EntityManager,
  pairs: readonly { resourceId: string; userId: string }[],
) => {
  if (pairs.length === 0) return
  await unlink(em, (knex) =>
    knex('resources_tags')
      .whereRaw(
        '(resources_tags.resource_id, resources_tags.user_id) in (select unnest(?::uuid[]), unnest(?::uuid[]))',
        [
          `{${pairs.map((pair) => pair.resourceId).join(',')}}`,
          `{${pairs.map((pair) => pair.userId).join(',')}}`,
        ],
      )
      .whereNotExists((readable) =>
        readable
          .select(knex.raw('1'))
          .from('permissions')
          .whereRaw('permissions.aco_foreign_key = resources_tags.resource_id')
          .whereRaw(
            `(permissions.aro_foreign_key = resources_tags.user_id
              or permissions.aro_foreign_key in (select gu.group_id from group_members gu
                join group_records g on g.id = gu.group_id and not g.deleted
                where gu.user_id = resources_tags.user_id))`,
          ),
      ),
  )
}

/** Removes the user's personal tags on every resource they can no longer read. */
export const forgetUnreadableTagsOf = (em: EntityManager, userId: string) =>
  unlink(em, (knex) =>
    knex('resources_tags')
      .where('user_id', userId)
      .whereNotIn(
        'resource_id',
        knex
          .select('readable.aco_foreign_key')
          .from(readableBy(knex, userId, 'Resource').as('readable')),
      ),
  )

/** Removes the personal tags a group's members put on resources they no longer read. */
export const forgetUnreadableTagsOfMembers = async (em: EntityManager, groupId: string) => {
  const members = await selectRows<{ user_id: string }>(em, (knex) =>
    knex('group_members').where('group_id', groupId).select('user_id'),
  )
  for (const { user_id } of members) await forgetUnreadableTagsOf(em, user_id)
}

/** Removes every personal tag of the user (they are being deleted). */
export const deleteTagsOfUser = (em: EntityManager, userId: string) =>
  unlink(em, (knex) => knex('resources_tags').where('user_id', userId))
