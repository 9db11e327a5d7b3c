// Routes of the secrets plugin: the caller's own secret of a resource, and the revision
// settings the workspace reads (one revision: the current secret).
import { z } from 'zod'
import { HttpError } from '../../api/errors.ts'
import { defineRoute } from '../../api/plugin.ts'
import { secretsOfUser } from './service.ts'

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/secrets/resource/{resourceId}.json',
    action: 'SecretsView.view',
    summary: "The caller's secret of a resource",
    description:
      'The OpenPGP message holding the resource’s secret encrypted for the caller. Only the caller’s own secret is ever answered; 404 when there is none (no access, or a deleted resource).',
    auth: 'user',
    // Only the caller's own row is read: a secret exists only for users with access.
    permission: 'none',
    params: z.object({
      resourceId: z.uuid({ error: 'The resource identifier should be a valid UUID.' }),
    }),
    handler: async ({ em, params, user }) => {
      const secret = (await secretsOfUser(em, user!.id, [params.resourceId])).get(params.resourceId)
      if (!secret) throw new HttpError(404, 'The secret does not exist.')
      return secret
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/secret-revisions/settings.json',
    action: 'SecretRevisionsSettingsGet.get',
    summary: 'How many revisions of a secret are kept',
    description:
      'One: the current secret. Keyward keeps no history of earlier secrets, so `/settings.json` does not announce `secretRevisions` and clients offer no history.',
    auth: 'user',
    // The organisation's settings, the same for every user.
    permission: 'none',
    handler: () => ({ max_revisions: 1, allow_sharing_revisions: false }),
  }),
]
