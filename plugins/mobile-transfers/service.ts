// Mobile transfers through the ORM: started by the signed-in extension (ending any earlier one
// of the same user), moved page by page by the phone, and expired with their token.
import type { EntityManager } from '@mikro-orm/postgresql'
import { constantTimeEqual } from '../../api/auth/csrf.ts'
import { lockRows, runInTransaction } from '../../api/db/transaction.ts'
import { formatDate } from '../../api/envelope.ts'
import { HttpError } from '../../api/errors.ts'
import { AuthenticationTokenSchema, createToken, isExpired } from '../auth/index.ts'
import { type Transfer, TransferSchema } from './entities/Transfer.ts'
import { messages } from './messages.ts'
import type { CreateBody, TransferJson, TransferStatus, UpdateBody } from './schemas.ts'

const ACTIVE: TransferStatus[] = ['start', 'in progress']
const OVER: TransferStatus[] = ['complete', 'cancel']

export const transferJson = (transfer: Transfer): TransferJson => ({
  id: transfer.id,
  user_id: transfer.userId,
  authentication_token_id: transfer.authenticationTokenId,
  hash: transfer.hash,
  current_page: transfer.currentPage,
  total_pages: transfer.totalPages,
  status: transfer.status as TransferStatus,
  created: formatDate(transfer.created)!,
  modified: formatDate(transfer.modified)!,
})

/**
 * Starts a transfer for the caller. A user has one live transfer at a time: earlier ones still
 * going are cancelled and their tokens spent, so an abandoned QR code cannot be finished later.
 */
export const startTransfer = async (em: EntityManager, userId: string, body: CreateBody) => {
  // Two starts by one user queue up here, so neither can miss the other's transfer.
  await lockRows(em, 'users', [userId])
  const earlier = await em.find(TransferSchema, { userId, status: { $in: ACTIVE } })
  for (const transfer of earlier) transfer.status = 'cancel'
  if (earlier.length > 0)
    await em.nativeUpdate(
      AuthenticationTokenSchema,
      { id: { $in: earlier.map((transfer) => transfer.authenticationTokenId) } },
      { active: false },
    )
  const token = createToken(em, 'mobile_transfer', userId)
  await em.flush()
  const transfer = em.create(TransferSchema, {
    userId,
    authenticationTokenId: token.id,
    hash: body.hash.toLowerCase(),
    currentPage: 0,
    totalPages: body.total_pages,
    status: 'start',
  } as Transfer)
  await em.flush()
  return {
    ...transferJson(transfer),
    authentication_token: {
      id: token.id,
      token: token.token,
      active: token.active,
      type: 'mobile_transfer' as const,
      created: formatDate(token.created)!,
      modified: formatDate(token.modified)!,
    },
  }
}

/** The caller's own transfer, expired first when its token is; 404 for anyone else's. */
export const viewTransfer = async (em: EntityManager, id: string, userId: string) => {
  const found = await em.findOne(TransferSchema, { id, userId })
  if (!found) throw new HttpError(404, messages.notFound)
  const { transfer } = await expireTransfer(em, found)
  return transferJson(transfer)
}

/**
 * A transfer whose token lapsed can no longer go on: the token is spent and the transfer
 * cancelled, as passbolt does, in a transaction of their own so that the refusal that follows
 * does not undo them. Says whether the token had just lapsed.
 */
export const expireTransfer = (em: EntityManager, transfer: Pick<Transfer, 'id'>) =>
  runInTransaction(em, async (tx) => {
    const locked = await lockTransfer(tx, transfer.id)
    const token = await tx.findOne(AuthenticationTokenSchema, {
      id: locked.authenticationTokenId,
    })
    const lapsed = Boolean(token?.active && isExpired(token))
    if (token && lapsed) token.active = false
    if (!token?.active && ACTIVE.includes(locked.status as TransferStatus)) locked.status = 'cancel'
    await tx.flush()
    return { transfer: locked, lapsed }
  })

/** The transfer, its row locked until the transaction ends. */
export const lockTransfer = async (em: EntityManager, id: string) => {
  if (!(await lockRows(em, 'transfers', [id])).has(id)) throw new HttpError(404, messages.notFound)
  return em.findOneOrFail(TransferSchema, { id }, { refresh: true })
}

/** The user a phone's token speaks for: 401 unless it is this transfer's token. */
export const tokenOwner = async (em: EntityManager, transfer: Transfer, value: string) => {
  const token = await em.findOne(AuthenticationTokenSchema, { id: transfer.authenticationTokenId })
  if (!token || !constantTimeEqual(token.token, value))
    throw new HttpError(401, messages.tokenInvalid)
  return token.userId
}

/** The transfer by id, for the routes that move it on; 404 when there is none. */
export const findTransfer = async (em: EntityManager, id: string) => {
  const transfer = await em.findOne(TransferSchema, { id })
  if (!transfer) throw new HttpError(404, messages.notFound)
  return transfer
}

/**
 * Moves a transfer on, for its owner: a new page or status. Refused (403) when the token is
 * spent or lapsed (the transfer is then cancelled), when the transfer is over, on a restart,
 * and when completing before the last page.
 */
export const moveTransfer = async (
  em: EntityManager,
  transfer: Transfer,
  actorId: string | null,
  body: UpdateBody,
) => {
  if (transfer.userId !== actorId) throw new HttpError(403, messages.notOwner)
  const token = await em.findOne(AuthenticationTokenSchema, { id: transfer.authenticationTokenId })
  if (!token || token.userId !== actorId || token.type !== 'mobile_transfer')
    throw new HttpError(403, messages.tokenInvalid)
  // Lapsed tokens were spent by `expireTransfer` before this transaction began.
  if (!token.active) throw new HttpError(403, messages.tokenInactive)
  if (body.status === 'start') throw new HttpError(403, messages.restart)
  if (OVER.includes(transfer.status as TransferStatus)) throw new HttpError(403, messages.over)
  const page = body.current_page ?? transfer.currentPage
  if (page >= transfer.totalPages)
    throw new HttpError(400, messages.validation, {
      current_page: { inferior_to_total: messages.currentPageTooBig },
    })
  if (body.status === 'complete' && page !== transfer.totalPages - 1)
    throw new HttpError(403, messages.notLastPage)
  transfer.currentPage = page
  transfer.status = body.status
  await em.flush()
  return transferJson(transfer)
}
