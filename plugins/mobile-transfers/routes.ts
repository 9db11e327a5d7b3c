// Routes of the mobile transfers: the extension starts a transfer and follows it; the phone,
// which has no account yet, moves it on with the token it read from the first QR code.
import { z } from 'zod'
import { runInTransaction } from '../../api/db/transaction.ts'
import { badRequest, HttpError } from '../../api/errors.ts'
import { defineRoute, type HandlerInput } from '../../api/plugin.ts'
import { isUuid } from '../../api/uuid.ts'
import { transferContain } from './contains.ts'
import { messages } from './messages.ts'
import {
  createBody,
  createdTransferSchema,
  transferSchema,
  type UpdateBody,
  updateBody,
} from './schemas.ts'
import {
  expireTransfer,
  findTransfer,
  lockTransfer,
  moveTransfer,
  startTransfer,
  tokenOwner,
  viewTransfer,
} from './service.ts'

const transferId = (id: string) => {
  if (!isUuid(id)) throw badRequest(messages.invalidId)
  return id
}

/**
 * Moves the transfer on for its owner: the signed-in caller, or whoever holds the transfer's
 * token (the phone, not signed in yet).
 */
const move = async (
  { em, body }: Pick<HandlerInput<unknown, UpdateBody>, 'em' | 'body'>,
  id: string,
  proof: { userId: string } | { token: string },
) => {
  const found = await findTransfer(em, transferId(id))
  const actorId = 'userId' in proof ? proof.userId : await tokenOwner(em, found, proof.token)
  if (found.userId !== actorId) throw new HttpError(403, messages.notOwner)
  if ((await expireTransfer(em, found)).lapsed) throw new HttpError(403, messages.tokenExpired)
  return runInTransaction(em, async (tx) =>
    moveTransfer(tx, await lockTransfer(tx, found.id), actorId, body),
  )
}

const updateDescription =
  '`status` (`in progress`, `complete`, `cancel` or `error`) and `current_page` (the page the phone asks for next; at most `total_pages - 1`). 403 for someone else’s transfer, a spent or lapsed token (a lapsed one also cancels the transfer), a transfer already complete or cancelled, a restart (`start`), and `complete` before the last page. `contain[user]` and `contain[user.profile]` add the user.'

export const routes = [
  defineRoute({
    method: 'POST',
    path: '/mobile/transfers.json',
    action: 'TransfersCreate.create',
    summary: 'Start a transfer of the account to a phone',
    description:
      'The extension sends `total_pages` (the QR codes it will show, the first included) and `hash` (the SHA-512 of the data in hexadecimal, which the phone checks once it has read every page). The answer carries the single-use `authentication_token` the first QR code gives the phone, valid 5 minutes. A transfer of the caller still going is cancelled: a user has one at a time.',
    auth: 'user',
    // Only the caller's own transfer is created.
    permission: 'none',
    body: createBody,
    validationMessage: messages.validation,
    response: createdTransferSchema,
    transaction: true,
    message: messages.created,
    handler: ({ em, user, body }) => startTransfer(em, user.id, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/mobile/transfers/{id}.json',
    action: 'TransfersView.view',
    summary: 'Follow a transfer',
    description:
      'The caller’s own transfer, which the extension polls to turn its QR pages; a transfer whose token lapsed answers `cancel`. 400 for an id that is not a UUID, 404 for a transfer of someone else. `contain[user]` and `contain[user.profile]` add the user.',
    auth: 'user',
    // Only the caller's own transfers are found.
    permission: 'none',
    params: z.object({ id: z.string() }),
    query: { contain: transferContain },
    response: transferSchema,
    handler: ({ em, user, params }) => viewTransfer(em, transferId(params.id), user.id),
  }),
  ...(['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path: '/mobile/transfers/{id}.json',
      action: 'TransfersUpdate.update',
      summary: 'Move a transfer on (signed in)',
      description: `The caller moves their own transfer on (the extension cancels it this way). ${updateDescription}`,
      auth: 'user',
      // The handler checks the transfer is the caller's (403 otherwise).
      permission: 'none',
      params: z.object({ id: z.string() }),
      body: updateBody,
      validationMessage: messages.validation,
      query: { contain: transferContain },
      response: transferSchema,
      handler: (input) => move(input, input.params.id, { userId: input.user.id }),
    }),
  ),
  ...(['PUT', 'POST'] as const).map((method) =>
    defineRoute({
      method,
      path: '/mobile/transfers/{id}/{authenticationTokenId}.json',
      action: 'TransfersUpdate.updateNoSession',
      summary: 'Move a transfer on (the phone, with its token)',
      description: `The phone, not signed in yet, proves itself with the token of the first QR code (401 when it is not this transfer's). ${updateDescription}`,
      auth: 'public',
      // The transfer's own token stands for its user; the handler checks it.
      permission: 'none',
      params: z.object({ id: z.string(), authenticationTokenId: z.string() }),
      body: updateBody,
      validationMessage: messages.validation,
      query: { contain: transferContain },
      response: transferSchema,
      // The phone is not signed in yet: no cookie session, hence no CSRF token to echo.
      csrf: false,
      throttle: { account: ({ params }) => params.id },
      handler: (input) => {
        if (!isUuid(input.params.authenticationTokenId))
          throw new HttpError(401, messages.tokenNotUuid)
        return move(input, input.params.id, { token: input.params.authenticationTokenId })
      },
    }),
  ),
]
