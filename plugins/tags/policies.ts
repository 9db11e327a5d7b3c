// Access policy of the routes that change one tag: only a personal tag the caller tags resources
// with. A shared tag is refused with 403 whoever asks (as passbolt does); any other tag is 404.
import { forbidden, messages, notFound } from '../../api/errors.ts'
import type { AccessPolicy } from '../../api/plugin.ts'
import { findTag, type TagJson, tagJson } from './service.ts'

export interface TagGranted {
  tag: TagJson
}

export const personalTagOfCaller = (
  sharedRefusal: string,
): AccessPolicy<TagGranted, { id: string }> => ({
  description: 'a personal tag the caller tags resources with',
  refusals: [403, 404],
  refusalMessages: { 403: sharedRefusal, 404: messages.modelNotFound('tag') },
  check: async ({ em, user, params }) => {
    // Read without a lock: the change locks the tag's row and looks again before using it.
    const tag = await findTag(em, user.id, params.id)
    if (!tag) throw notFound('tag')
    if (tag.is_shared) throw forbidden(sharedRefusal)
    if (!tag.mine) throw notFound('tag')
    return { tag: tagJson(tag) }
  },
})
