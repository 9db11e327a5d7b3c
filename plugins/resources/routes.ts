// Routes of the resources plugin: list, view, create, update and delete passwords.
import { z } from 'zod'
import { JsonRowStream } from '../../api/envelope.ts'
import { badRequest, notFound } from '../../api/errors.ts'
import { defineRoute, type HandlerInput, Reply } from '../../api/plugin.ts'
import type { ParsedQuery } from '../../api/query.ts'
import { noBody } from '../../api/response-schemas.ts'
import { canAccess, READ, UPDATE } from '../permissions/index.ts'
import { resourceContain } from './contains.ts'
import { documentsCover, selectResourceDocuments } from './documents.ts'
import { messages } from './messages.ts'
import { type ResourceFilters, SORTABLE, selectResources } from './query.ts'
import { resourceResponse } from './response.ts'
import { createBody, updateBody } from './schemas.ts'
import { resourceJson } from './serialize.ts'
import { createResource, softDeleteResources, updateResource } from './service.ts'

const idParams = z.object({ id: z.uuid({ error: messages.invalidId }) })

const resourceAccess = (level: typeof READ | typeof UPDATE, forbidden: string, lock?: boolean) =>
  canAccess({
    aco: 'Resource',
    param: 'id',
    level,
    model: 'resource',
    forbidden,
    ...(lock ? { lock: 'resources' } : {}),
  })

const filtersOf = (query: ParsedQuery): ResourceFilters => {
  const { filter } = query
  const keyType = filter.metadata_key_type as string | undefined
  if (keyType !== undefined && keyType !== 'user_key' && keyType !== 'shared_key')
    throw badRequest(messages.metadataKeyTypeFilter(keyType))
  return {
    ids: filter['has-id'] as string[] | undefined,
    favorite: filter['is-favorite'] as boolean | undefined,
    ownedByMe: filter['is-owned-by-me'] === true,
    sharedWithMe: filter['is-shared-with-me'] === true,
    sharedWithGroup: filter['is-shared-with-group'] as string | undefined,
    metadataKeyType: keyType,
    parents: filter['has-parent'] as (string | null)[] | undefined,
    tag: filter['has-tag'] as string | undefined,
  }
}

/** One resource as the caller sees it, with the contains the request asked for. */
const readOne = async (
  {
    em,
    user,
    query,
  }: Pick<HandlerInput<unknown, unknown, unknown, 'user'>, 'em' | 'user' | 'query'>,
  id: string,
) => {
  const { rows } = await selectResources(
    em,
    user.id,
    { ...query, page: 1, limit: null },
    { ids: [id] },
  )
  if (rows.length === 0) throw notFound('resource')
  return resourceJson(rows[0])
}

const listQuery = {
  contain: resourceContain,
  paginate: true,
  sort: Object.keys(SORTABLE),
} as const

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/resources.json',
    action: 'ResourcesIndex.index',
    summary: 'The resources the caller can read',
    description:
      'Every live resource the caller can read, directly or through a group, each with what `contain[...]` asks for (`permission` is the caller’s highest permission). Filters: `has-id[]`, `has-parent[]` (folder ids in the caller’s tree, `0` for its root), `is-favorite`, `is-owned-by-me`, `is-shared-with-me`, `is-shared-with-group`, `has-tag` (a slug: a shared `#tag`, or one of the caller’s), `metadata_key_type` (`user_key` or `shared_key`; anything else is a 400). Paginated with `page` and `limit`.',
    auth: 'user',
    // The list joins what the caller may read: no other row is ever loaded.
    permission: 'none',
    query: {
      ...listQuery,
      filter: {
        'has-id': 'uuids',
        'is-favorite': 'boolean',
        'is-owned-by-me': 'boolean',
        'is-shared-with-me': 'boolean',
        'is-shared-with-group': 'uuid',
        metadata_key_type: 'string',
        'has-parent': 'parent',
        'has-tag': 'string',
      },
    },
    response: z.array(resourceResponse),
    handler: async ({ em, user, query, app }) => {
      // The clients' usual contains come written by PostgreSQL; the rarer ones (creator,
      // modifier, secret, resource type) are loaded on objects.
      if (documentsCover(query.contain)) {
        const { documents, pagination } = await selectResourceDocuments(
          em,
          app,
          user.id,
          query,
          filtersOf(query),
        )
        return new Reply(new JsonRowStream(documents), { pagination })
      }
      const page = await selectResources(em, user.id, query, filtersOf(query))
      return new Reply(page.rows.map(resourceJson), { pagination: page.pagination })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/resources/{id}.json',
    action: 'ResourcesView.view',
    summary: 'One resource',
    description:
      'A resource the caller can read, with what `contain[...]` asks for. 404 otherwise.',
    auth: 'user',
    permission: resourceAccess(READ, 'You are not allowed to access this resource.'),
    params: idParams,
    query: { contain: resourceContain },
    response: resourceResponse,
    handler: (input) => readOne(input, input.params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/resources.json',
    action: 'ResourcesAdd.add',
    summary: 'Create a resource',
    description:
      'Creates a v4 resource (`name`, `username`, `uri`, `description` in clear) or a v5 one (`metadata` encrypted to the caller’s key or to a metadata key, with `metadata_key_id` and `metadata_key_type`), with exactly one secret: the caller’s, encrypted for their key. The caller becomes its owner. The organisation’s metadata settings decide which versions may be created.',
    auth: 'user',
    // Anyone signed in may create a resource; they become its only owner.
    permission: 'none',
    body: createBody,
    query: { contain: resourceContain },
    transaction: true,
    message: messages.added,
    response: resourceResponse,
    handler: async (input) =>
      readOne(input, await createResource(input.em, input.user.id, input.body)),
  }),
  ...(['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path: '/resources/{id}.json',
      action: 'ResourcesUpdate.update',
      summary: 'Update a resource',
      description:
        'Changes a resource’s metadata (of its version), type or expiry, and with `secrets` its secret: then one entry per user who can read it, each encrypted for that user, no more and no fewer. Needs update or owner permission: 403 with read only, 404 without access.',
      auth: 'user',
      permission: resourceAccess(UPDATE, messages.cannotUpdate, true),
      params: idParams,
      body: updateBody,
      query: { contain: resourceContain },
      transaction: true,
      message: messages.updated,
      response: resourceResponse,
      handler: async (input) => {
        if (Object.values(input.body).every((value) => value === undefined))
          throw badRequest(messages.emptyBody)
        await updateResource(input.em, input.user.id, input.params.id, input.body)
        return readOne(input, input.params.id)
      },
    }),
  ),
  defineRoute({
    method: 'DELETE',
    path: '/resources/{id}.json',
    action: 'ResourcesDelete.delete',
    summary: 'Delete a resource',
    description:
      'Soft-deletes a resource: its cleartext fields are cleared and its permissions, secrets, favorites, tags and comments removed, in one transaction. Needs update or owner permission: 403 with read only, 404 without access.',
    auth: 'user',
    permission: resourceAccess(UPDATE, messages.cannotDelete, true),
    params: idParams,
    transaction: true,
    message: messages.deleted,
    response: noBody,
    handler: async ({ em, params, user }) => {
      await softDeleteResources(em, [params.id], user.id)
      return null
    },
  }),
]
