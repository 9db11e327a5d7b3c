// Routes of the tags plugin: list the caller's tags, replace the tags on a resource, rename and
// delete a personal tag.
import { z } from 'zod'
import { badRequest } from '../../api/errors.ts'
import { defineRoute } from '../../api/plugin.ts'
import { noBody } from '../../api/response-schemas.ts'
import { canAccess, OWNER, READ } from '../permissions/index.ts'
import { messages } from './messages.ts'
import { personalTagOfCaller } from './policies.ts'
import {
  isEncrypted,
  isSharedSlug,
  readRequestedTags,
  renameBody,
  replaceBody,
  tagResponse,
} from './schemas.ts'
import {
  assertTagFormatAllowed,
  deletePersonalTag,
  listTags,
  renamePersonalTag,
  replaceResourceTags,
} from './service.ts'

const tagParams = z.object({ id: z.uuid({ error: messages.invalidTagId }) })

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/tags.json',
    action: 'TagsIndex.index',
    summary: 'The tags the caller sees',
    description:
      'The tags on live resources the caller can read: their personal tags and the shared ones (`#name`), each once, by slug.',
    auth: 'user',
    // The query joins what the caller may read: no other tag is ever loaded.
    permission: 'none',
    response: z.array(tagResponse),
    handler: ({ em, user }) => listTags(em, user.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/tags/{id}.json',
    action: 'ResourcesTagsAdd.addPost',
    summary: 'Replace the caller’s tags on a resource',
    description:
      'Replaces the tags the caller sees on a resource they can read by `tags`: slugs (`#name` for a shared tag), or `{"id": …}` for one of their tags or a shared one. A slug the caller has never used becomes a new tag; personal tags belong to the caller alone. Only owners of the resource may add or remove shared tags (400 otherwise). Answers the resource’s tags as the caller now sees them. 404 when the caller cannot read the resource.',
    auth: 'user',
    // The resource's row stays locked until the change ends, so two changes to its tags queue up.
    permission: canAccess({
      aco: 'Resource',
      param: 'id',
      level: READ,
      model: 'resource',
      forbidden: 'You are not allowed to access this resource.',
      lock: 'resources',
    }),
    params: z.object({ id: z.uuid({ error: messages.invalidResourceId }) }),
    body: replaceBody,
    validationMessage: messages.requestValidation,
    transaction: true,
    response: z.array(tagResponse),
    handler: async ({ em, params, user, body, granted }) => {
      const requested = readRequestedTags(body)
      if (requested.encrypted || requested.slugs.length || requested.ids.length)
        await assertTagFormatAllowed(em, requested.encrypted)
      return replaceResourceTags(em, {
        userId: user.id,
        resourceId: params.id,
        owner: granted.permission === OWNER,
        requested,
      })
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/tags/{id}.json',
    action: 'TagsUpdate.update',
    summary: 'Rename a personal tag',
    description:
      'Gives one of the caller’s personal tags a new `slug` on every resource they tagged with it; when they already have a tag of that slug, the two merge. Answers the resulting tag (its id changes when the slug does). A shared tag is refused (403), and so is a new slug starting with `#` (400); 404 for a tag the caller does not use.',
    auth: 'user',
    permission: personalTagOfCaller(messages.sharedUpdate),
    params: tagParams,
    body: renameBody,
    validationMessage: messages.tagValidation,
    transaction: true,
    message: messages.updated,
    response: tagResponse,
    handler: async ({ em, user, body, granted }) => {
      if (isEncrypted(body)) await assertTagFormatAllowed(em, true)
      if (body.slug === undefined)
        throw badRequest(messages.tagValidation, { slug: { _required: messages.tagRequired } })
      if (isSharedSlug(body.slug)) throw badRequest(messages.personalToShared)
      await assertTagFormatAllowed(em, false)
      return renamePersonalTag(em, user.id, granted.tag, body.slug)
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/tags/{id}.json',
    action: 'TagsDelete.delete',
    summary: 'Delete a personal tag',
    description:
      'Removes one of the caller’s personal tags from every resource they tagged with it. A shared tag is refused (403); 404 for a tag the caller does not use.',
    auth: 'user',
    permission: personalTagOfCaller(messages.sharedDelete),
    params: tagParams,
    transaction: true,
    message: messages.deleted,
    response: noBody,
    handler: async ({ em, user, granted }) => {
      await deletePersonalTag(em, user.id, granted.tag.id)
      return null
    },
  }),
]
