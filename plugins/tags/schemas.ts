// What clients send about tags: the list that replaces a resource's tags (v4 slugs, `#` for a
// shared one, or an existing tag by id) and a personal tag's new slug. Slugs are checked as
// passbolt checks them: not empty, at most 128 characters, well-formed text.
import { z } from 'zod'
import { badRequest } from '../../api/errors.ts'
import { isUuid } from '../../api/uuid.ts'
import { checkedLater, ErrorTree, isWellFormedText } from '../../api/validation.ts'
import { messages } from './messages.ts'

/** A client may send at most this many tags for one resource. */
export const MAX_TAGS = 1000

export const isSharedSlug = (slug: string) => slug.startsWith('#')

/** The rule a slug breaks and its message, or undefined when it is a valid slug. */
export const slugProblem = (slug: string): [rule: string, message: string] | undefined => {
  if (slug.length === 0) return ['_empty', messages.tagEmpty]
  if (!isWellFormedText(slug)) return ['utf8Extended', messages.tagUtf8]
  // Characters, not UTF-16 units, as passbolt and the column count them.
  if ([...slug].length > 128) return ['maxLength', messages.tagLength]
  return undefined
}

const slugSchema = z
  .string({
    error: (issue) => (issue.input === undefined ? messages.tagRequired : messages.tagEmpty),
  })
  .superRefine((slug, context) => {
    const problem = slugProblem(slug)
    if (problem)
      context.addIssue({ code: 'custom', message: problem[1], params: { rule: problem[0] } })
  })

const slugText = z.string().min(1).max(128)

/** A v5 tag: its slug encrypted for the metadata key. The server refuses them for now. */
const encryptedTag = {
  metadata: z.string().nullable().optional(),
  metadata_key_id: z.string().meta({ format: 'uuid' }).nullable().optional(),
  metadata_key_type: z.enum(['user_key', 'shared_key']).nullable().optional(),
}

/** One requested tag: a slug, an existing tag by id, a slug in an object, or a v5 tag. */
const requestedTag = checkedLater(
  z.union([
    slugText.describe('A slug; `#name` for a shared tag.'),
    z.object({ id: z.string().meta({ format: 'uuid' }) }).describe('A tag the caller sees.'),
    z.object({ slug: slugText, is_shared: z.boolean().optional() }),
    z.object(encryptedTag),
  ]),
)

export const replaceBody = z.looseObject({
  tags: z
    .array(requestedTag, { error: 'The tags should be a list.' })
    .max(MAX_TAGS, { error: messages.tooMany })
    .optional()
    .describe(
      'The tags the caller wants on the resource: slugs (`#name` for a shared tag), or `{"id": …}` for a tag they see.',
    ),
  // passbolt's v1 clients wrote `Tags`.
  Tags: z.array(requestedTag).max(MAX_TAGS, { error: messages.tooMany }).optional(),
})

export type ReplaceBody = z.output<typeof replaceBody>

export const renameBody = z.looseObject({
  slug: slugSchema.optional(),
  is_shared: z.boolean().nullable().optional(),
  // Any value here is a v5 tag, which the route refuses with passbolt's message.
  metadata: checkedLater(encryptedTag.metadata).optional(),
  metadata_key_id: checkedLater(encryptedTag.metadata_key_id).optional(),
  metadata_key_type: checkedLater(encryptedTag.metadata_key_type).optional(),
})

export type RenameBody = z.output<typeof renameBody>

/** A v5 payload: encrypted metadata instead of a slug. */
export const isEncrypted = (item: { metadata?: unknown }) =>
  item.metadata !== undefined && item.metadata !== null

/** The tags a client asks for: new or existing slugs, and existing tags by id. */
export interface RequestedTags {
  slugs: { index: number; slug: string }[]
  ids: { index: number; id: string }[]
  /** Whether an item is a v5 (encrypted) tag. */
  encrypted: boolean
}

/**
 * Reads the list of a replace request: strings are slugs, objects name an existing tag by `id`,
 * a slug by `slug`, or carry v5 metadata. 400 with the rows at fault otherwise.
 */
export const readRequestedTags = (body: ReplaceBody): RequestedTags => {
  const items = body.tags ?? body.Tags ?? []
  const requested: RequestedTags = { slugs: [], ids: [], encrypted: false }
  const shape = new ErrorTree()
  const slugs = new ErrorTree()
  for (const [index, item] of items.entries()) {
    if (typeof item === 'string') {
      const problem = slugProblem(item)
      if (problem) slugs.add([index, 'slug'], ...problem)
      else requested.slugs.push({ index, slug: item })
    } else if (item && typeof item === 'object' && !Array.isArray(item)) {
      const fields = item as Record<string, unknown>
      if ('id' in fields) {
        if (isUuid(fields.id)) requested.ids.push({ index, id: fields.id.toLowerCase() })
        else shape.add([index, 'id'], 'uuid', messages.tagIdUuid)
      } else if (isEncrypted(fields)) requested.encrypted = true
      else if (typeof fields.slug === 'string') {
        const problem = slugProblem(fields.slug)
        if (problem) slugs.add([index, 'slug'], ...problem)
        else requested.slugs.push({ index, slug: fields.slug })
      } else slugs.add([index, 'slug'], '_required', messages.tagRequired)
    } else shape.add([index], 'type', messages.itemType)
  }
  if (!shape.empty) throw badRequest(messages.requestValidation, shape.tree)
  if (!slugs.empty) throw badRequest(messages.tagsValidation, slugs.tree)
  return requested
}

/** A tag as the API answers it, alone or on a resource (`contain[tag]`). */
export const tagResponse = z.object({
  id: z.string().meta({ format: 'uuid' }),
  slug: z.string(),
  is_shared: z.boolean(),
})
