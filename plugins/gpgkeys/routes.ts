// Routes of the gpgkeys plugin: the users' public keys, which clients sync into their keyring
// to encrypt for others.
import { z } from 'zod'
import { badRequest, HttpError } from '../../api/errors.ts'
import { defineRoute, Reply } from '../../api/plugin.ts'
import { isUuid } from '../../api/uuid.ts'
import { SORTABLE, selectKey, selectKeys } from './service.ts'

const gpgkeyResponse = z.object({
  id: z.string().meta({ format: 'uuid' }),
  user_id: z.string().meta({ format: 'uuid' }),
  armored_key: z.string(),
  bits: z.number().int().nullable(),
  uid: z.string(),
  key_id: z.string(),
  fingerprint: z.string(),
  type: z.string(),
  expires: z.string().nullable(),
  key_created: z.string().nullable(),
  deleted: z.boolean(),
  created: z.string().nullable(),
  modified: z.string().nullable(),
})

export const routes = [
  defineRoute({
    method: 'GET',
    path: '/gpgkeys.json',
    action: 'GpgkeysIndex.index',
    summary: 'The users’ public keys',
    description:
      'Every live public key (`filter[is-deleted]=1`: the deleted ones), with the facts read from it when it was stored. `filter[modified-after]` (Unix time, also `modified_after`) keeps those changed since, as the keyring sync asks; `filter[has-users][]` those of the users given. Paginated; sortable by `Gpgkeys.key_id`.',
    auth: 'user',
    // Public keys are for anyone signed in to encrypt with, as in passbolt.
    permission: 'none',
    query: {
      filter: { 'modified-after': 'timestamp', 'is-deleted': 'boolean', 'has-users': 'uuids' },
      sort: Object.keys(SORTABLE),
      paginate: true,
    },
    response: z.array(gpgkeyResponse),
    handler: async ({ em, query }) => {
      const page = await selectKeys(em, query, {
        modifiedAfter: query.filter['modified-after'] as Date | undefined,
        deleted: query.filter['is-deleted'] === true,
        users: query.filter['has-users'] as string[] | undefined,
      })
      return new Reply(page.rows, { pagination: page.pagination })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/gpgkeys/{id}.json',
    action: 'GpgkeysView.view',
    summary: 'One public key',
    description: 'A public key by id, live or deleted. 400 for an invalid id, 404 when unknown.',
    auth: 'user',
    // Public keys are for anyone signed in, as in passbolt.
    permission: 'none',
    // Checked by the handler, to answer passbolt's message with an empty body.
    params: z.object({ id: z.string().max(64) }),
    response: gpgkeyResponse,
    handler: async ({ em, params }) => {
      if (!isUuid(params.id)) throw badRequest('The OpenPGP key identifier should be a valid UUID.')
      const key = await selectKey(em, params.id)
      if (!key) throw new HttpError(404, 'The OpenPGP key does not exist.')
      return key
    },
  }),
]
