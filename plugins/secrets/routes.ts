// Routes of the secrets plugin: the caller's own secret of a resource.
import { z } from 'zod'
import { HttpError } from '../../api/errors.ts'
import { defineRoute } from '../../api/plugin.ts'
import { canAccess, READ } from '../permissions/index.ts'
import { secretResponse } from './schemas.ts'
import { secretsOfUser } from './service.ts'

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/secrets/resource/{resourceId}.json',
    action: 'SecretsView.view',
    summary: "The caller's secret of a resource",
    description:
      'The OpenPGP message holding the resource’s secret encrypted for the caller. Needs read access to the resource (404 without it, whatever secret row may be left); only the caller’s own secret is ever answered; 404 when there is none.',
    auth: 'user',
    // A secret row alone proves nothing: access is checked on the resource itself.
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
    response: secretResponse,
    handler: async ({ em, params, user }) => {
      const secret = (await secretsOfUser(em, user.id, [params.resourceId])).get(params.resourceId)
      if (!secret) throw new HttpError(404, 'The secret does not exist.')
      return secret
    },
  }),
]
