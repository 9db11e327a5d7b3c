// Routes of the share plugin: share a resource, simulate it, find users and groups to share with.
import { z } from 'zod'
import { defineRoute } from '../../api/plugin.ts'
import { noBody } from '../../api/response-schemas.ts'
import {
  canAccess,
  embeddedGroupJson,
  OWNER,
  shareSimulationResponse,
} from '../permissions/index.ts'
import { userResponse } from '../users/index.ts'
import { messages } from './messages.ts'
import { shareBody, simulateBody } from './schemas.ts'
import { searchAros } from './search.ts'
import { shareResource, simulateShare } from './service.ts'

const idParams = z.object({ id: z.uuid({ error: messages.invalidId }) })

const ownerOf = (lock: boolean) =>
  canAccess({
    aco: 'Resource',
    param: 'id',
    level: OWNER,
    model: 'resource',
    forbidden: messages.notAllowed,
    ...(lock ? { lock: 'resources' } : {}),
  })

export const routes = [
  ...(['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path: '/share/resource/{id}.json',
      action: 'Share.update',
      summary: 'Share a resource',
      description:
        'Applies permission changes (add `{aro, aro_foreign_key, type}`, change `{id, type}`, remove `{id, delete: true}`) and stores one secret per user who gains access (groups expanded), encrypted for them. All of it applies or nothing does: the resource keeps at least one owner and every user who can read it exactly one secret. Owners only: 403 for other readers, 404 without access. Concurrent shares of one resource wait for each other.',
      auth: 'user',
      permission: ownerOf(true),
      params: idParams,
      body: shareBody,
      validationMessage: messages.validation,
      transaction: true,
      response: noBody,
      handler: async ({ em, params, body, user, app }) => {
        await shareResource(em, app, params.id, body, user.id)
        return null
      },
    }),
  ),
  defineRoute({
    method: 'POST',
    path: '/share/simulate/resource/{id}.json',
    action: 'ShareSimulate.simulate',
    summary: 'Simulate sharing a resource',
    description:
      'Checks permission changes as the share would, writes nothing, and answers the users who would gain and lose access (`{changes: {added: [{User: {id}}], removed: [...]}}`): the client encrypts a secret for each added user.',
    auth: 'user',
    permission: ownerOf(false),
    params: idParams,
    body: simulateBody,
    validationMessage: messages.validation,
    response: shareSimulationResponse,
    handler: ({ em, params, body, user }) =>
      simulateShare(em, params.id, body.permissions, user.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/share/search-aros.json',
    action: 'ShareSearch.searchArosToShareWith',
    summary: 'Find users and groups to share with',
    description:
      'Up to 25 active users (matching `filter[search]` in their username, first or last name) and 25 groups (matching it in their name, with `user_count`), sorted by username or name. A user always comes with their profile; `contain[groups_users]`, `contain[gpgkey]` and `contain[role]` add those (all three when no contain is given).',
    auth: 'user',
    // Every signed-in user may see the active users and the groups, as in passbolt.
    permission: 'none',
    query: {
      contain: { groups_users: {}, gpgkey: {}, role: {} },
      filter: { search: 'search' },
    },
    response: z.array(z.union([userResponse, embeddedGroupJson])),
    handler: ({ em, query, app }) => {
      // As passbolt: once any accepted contain is given, the others are off.
      const asked = Object.keys(query.contain).length > 0
      return searchAros(em, {
        keyword: (query.filter.search as string[] | undefined)?.[0],
        contain: {
          groups_users: asked ? Boolean(query.contain.groups_users) : true,
          gpgkey: asked ? Boolean(query.contain.gpgkey) : true,
          role: asked ? Boolean(query.contain.role) : true,
        },
        appUrl: app.config.appUrl,
      })
    },
  }),
]
