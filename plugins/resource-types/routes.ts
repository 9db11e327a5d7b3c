// Routes of the resource types plugin: the list and one type for every user; soft deletion and
// restoration for administrators.
import { z } from 'zod'
import { badRequest, notFound } from '../../api/errors.ts'
import { defineRoute } from '../../api/plugin.ts'
import { noBody } from '../../api/response-schemas.ts'
import { messages } from './messages.ts'
import { resourceTypeResponse, restoreBody } from './schemas.ts'
import {
  deleteResourceType,
  findResourceType,
  listResourceTypes,
  restoreResourceType,
} from './service.ts'

const idParams = z.object({ id: z.uuid({ error: messages.invalidId }) })

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/resource-types.json',
    action: 'ResourceTypesIndex.index',
    summary: 'The resource types',
    description:
      'Lists the live resource types (with `filter[is-deleted]=1`, the deleted ones), each with the JSON schemas of its metadata and secret. Administrators may ask for `contain[resources_count]`, the number of live resources of each type.',
    auth: 'user',
    // The types are the same for everyone; the count is given to administrators only.
    permission: 'none',
    query: { contain: { resources_count: {} }, filter: { 'is-deleted': 'boolean' } },
    response: z.array(resourceTypeResponse),
    handler: ({ em, query, user }) =>
      listResourceTypes(em, {
        deleted: query.filter['is-deleted'] === true,
        resourcesCount: Boolean(query.contain.resources_count) && user.role === 'admin',
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/resource-types/{id}.json',
    action: 'ResourceTypesView.view',
    summary: 'One resource type',
    description: 'A resource type by id, deleted or not. 404 when there is none.',
    auth: 'user',
    // The types are the same for everyone.
    permission: 'none',
    params: idParams,
    response: resourceTypeResponse,
    handler: async ({ em, params }) => {
      const type = await findResourceType(em, params.id)
      if (!type) throw notFound('resource type')
      return type
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/resource-types/{id}.json',
    action: 'ResourceTypesDelete.delete',
    summary: 'Soft-delete a resource type',
    description:
      'Marks a resource type deleted: resources of it disappear from lists. Refused while live resources of the type exist, for the last type of the default metadata version, and for the last type.',
    auth: 'admin',
    // Administrators only, by auth.
    permission: 'none',
    params: idParams,
    transaction: true,
    response: noBody,
    handler: async ({ em, params }) => {
      await deleteResourceType(em, params.id)
      return null
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/resource-types/{id}.json',
    action: 'ResourceTypesUpdate.update',
    summary: 'Restore a deleted resource type',
    description: 'The only change allowed is `{"deleted": null}`, which restores a deleted type.',
    auth: 'admin',
    // Administrators only, by auth.
    permission: 'none',
    params: idParams,
    body: restoreBody,
    transaction: true,
    response: noBody,
    handler: async ({ em, params, body }) => {
      if (Object.keys(body).length === 0) throw badRequest(messages.emptyBody)
      if (!('deleted' in body) || body.deleted !== null)
        throw badRequest(messages.deletedMustBeNull)
      if (Object.keys(body).length > 1) throw badRequest(messages.onlyDeleted)
      await restoreResourceType(em, params.id)
      return null
    },
  }),
]
