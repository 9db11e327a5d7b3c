// Routes of the comments plugin: the threads on a resource, and a comment added, edited or
// deleted.
import { z } from 'zod'
import { defineRoute } from '../../api/plugin.ts'
import { noBody } from '../../api/response-schemas.ts'
import { canAccess, READ } from '../permissions/index.ts'
import { commentContain } from './contains.ts'
import { messages } from './messages.ts'
import { authorOfComment, readableThread } from './policies.ts'
import { commentResponse, commentThreadsResponse, createBody, updateBody } from './schemas.ts'
import { addComment, commentThreads, deleteComment, updateComment } from './service.ts'

const commentParams = z.object({ id: z.uuid({ error: messages.invalidId }) })

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/comments/resource/{resourceId}.json',
    action: 'CommentsView.view',
    summary: 'The comments on a resource',
    description:
      'The comments on a resource the caller can read, as threads: the latest modified first, each with its replies in `children`. `contain[creator]` and `contain[modifier]` add the users with their profiles. 404 when the caller cannot read the resource.',
    auth: 'user',
    permission: readableThread,
    params: z.object({ resourceId: z.uuid({ error: messages.invalidListId }) }),
    query: { contain: commentContain },
    response: commentThreadsResponse,
    handler: ({ em, params }) => commentThreads(em, params.resourceId),
  }),
  defineRoute({
    method: 'POST',
    path: '/comments/resource/{resourceId}.json',
    action: 'CommentsAdd.addPost',
    summary: 'Comment on a resource',
    description:
      'Adds a comment by the caller on a resource they can read: `content` (1 to 255 characters) and, for a reply, `parent_id`, a comment on the same resource. 404 when the caller cannot read the resource.',
    auth: 'user',
    // The resource's row stays locked until the comment is written, so a deletion cannot leave it behind.
    permission: canAccess({
      aco: 'Resource',
      param: 'resourceId',
      level: READ,
      model: 'resource',
      forbidden: 'You are not allowed to access this resource.',
      lock: 'resources',
    }),
    params: z.object({ resourceId: z.uuid({ error: messages.invalidResourceId }) }),
    body: createBody,
    validationMessage: messages.validation,
    transaction: true,
    message: messages.added,
    response: commentResponse,
    handler: ({ em, params, body, user }) =>
      addComment(em, {
        userId: user.id,
        resourceId: params.resourceId,
        content: body.content,
        parentId: body.parent_id,
      }),
  }),
  defineRoute({
    method: 'PUT',
    path: '/comments/{id}.json',
    action: 'CommentsUpdate.update',
    summary: 'Edit a comment',
    description:
      'Changes the `content` of a comment the caller wrote on a resource they can still read. 403 for someone else’s comment; 404 when the comment does not exist or its resource is out of the caller’s reach.',
    auth: 'user',
    permission: authorOfComment(messages.cannotEdit),
    params: commentParams,
    body: updateBody,
    validationMessage: messages.validation,
    transaction: true,
    message: messages.updated,
    response: commentResponse,
    handler: ({ em, params, body, user }) => updateComment(em, user.id, params.id, body.content),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/comments/{id}.json',
    action: 'CommentsDelete.delete',
    summary: 'Delete a comment',
    description:
      'Deletes a comment the caller wrote on a resource they can still read, with the replies to it. 404 otherwise, whoever wrote it.',
    auth: 'user',
    permission: authorOfComment(),
    params: commentParams,
    transaction: true,
    message: messages.deleted,
    response: noBody,
    handler: async ({ em, params }) => {
      await deleteComment(em, params.id)
      return null
    },
  }),
]
