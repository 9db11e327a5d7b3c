// Access policies of the comments routes: the threads of a resource the caller can read, and a
// comment its author may change while they can still read its resource. A caller who cannot
// read the resource never learns whether a comment exists (404).
import { messages as errorMessages, HttpError, notFound } from '../../api/errors.ts'
import type { AccessPolicy } from '../../api/plugin.ts'
import { effectivePermission } from '../permissions/index.ts'
import { messages } from './messages.ts'
import { type CommentJson, lockComment } from './service.ts'

/** At least read on the resource; refused with passbolt's message for a missing thread. */
export const readableThread: AccessPolicy<undefined, { resourceId: string }> = {
  description: 'at least read permission on the resource',
  refusals: [404],
  refusalMessages: { 404: messages.noComments },
  check: async ({ em, user, params }) => {
    if ((await effectivePermission(em, user.id, 'Resource', params.resourceId)) === undefined)
      throw new HttpError(404, messages.noComments)
    return undefined
  },
}

export interface CommentGranted {
  comment: CommentJson
}

/**
 * The caller wrote the comment and can still read its resource. Someone else's comment is a 403
 * with `forbidden`, or a 404 when none is given (passbolt's delete). The comment's row stays
 * locked until the change ends.
 */
export const authorOfComment = (
  forbidden?: string,
): AccessPolicy<CommentGranted, { id: string }> => ({
  description: 'the author of the comment, who can still read its resource',
  refusals: forbidden ? [403, 404] : [404],
  refusalMessages: { 403: forbidden, 404: errorMessages.modelNotFound('comment') },
  check: async ({ em, user, params }) => {
    const comment = await lockComment(em, params.id)
    if (!comment) throw notFound('comment')
    const level = await effectivePermission(em, user.id, 'Resource', comment.foreign_key)
    if (level === undefined) throw notFound('comment')
    if (comment.user_id !== user.id)
      throw forbidden ? new HttpError(403, forbidden) : notFound('comment')
    return { comment }
  },
})
