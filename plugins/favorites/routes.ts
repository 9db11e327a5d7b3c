// Routes of the favorites plugin: mark a resource the caller can read, and unmark it.
import { z } from 'zod'
import { badRequest, notFound } from '../../api/errors.ts'
import { defineRoute } from '../../api/plugin.ts'
import { noBody } from '../../api/response-schemas.ts'
import { canAccess, READ } from '../permissions/index.ts'
import { favoriteResponse } from './schemas.ts'
import { addFavorite, removeFavorite } from './service.ts'

export const routes = [
  defineRoute({
    method: 'POST',
    path: '/favorites/resource/{resourceId}.json',
    action: 'FavoritesAdd.add',
    summary: 'Mark a resource as a favorite',
    description:
      'Marks a resource the caller can read as one of their favorites. 400 when it already is; 404 when the caller cannot read it.',
    auth: 'user',
    permission: canAccess({
      aco: 'Resource',
      param: 'resourceId',
      level: READ,
      model: 'resource',
      forbidden: 'You are not allowed to access this resource.',
    }),
    params: z.object({
      resourceId: z.uuid({ error: 'The resource identifier should be a valid UUID.' }),
    }),
    message: 'The resource was marked as favorite.',
    response: favoriteResponse,
    handler: async ({ em, params, user }) => {
      const favorite = await addFavorite(em, user.id, params.resourceId)
      if (!favorite) throw badRequest('This record is already marked as favorite.')
      return favorite
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/favorites/{id}.json',
    action: 'FavoritesDelete.delete',
    summary: 'Unmark a favorite',
    description: 'Removes one of the caller’s favorites. 404 when the caller has no such favorite.',
    auth: 'user',
    // Only the caller's own favorite can be removed: the query is restricted to it.
    permission: 'none',
    params: z.object({ id: z.uuid({ error: 'The favorite id is not valid.' }) }),
    message: 'The favorite was deleted.',
    response: noBody,
    handler: async ({ em, params, user }) => {
      if (!(await removeFavorite(em, user.id, params.id))) throw notFound('favorite')
      return null
    },
  }),
]
