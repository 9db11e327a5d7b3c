// Authentication tokens: made random, found by type and owner, checked for age, used once.
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { constantTimeEqual } from '../../api/auth/csrf.ts'
import { purgeInBatches } from '../../api/db/purge.ts'
import { executeStatement } from '../../api/orm.ts'
import {
  type AuthenticationToken,
  AuthenticationTokenSchema,
  type TokenType,
} from './entities/AuthenticationToken.ts'

/** How long each kind of token lives, from its creation. */
export const TOKEN_LIFETIME_MS: Record<TokenType, number> = {
  login: 5 * 60_000,
  register: 10 * 24 * 3_600_000,
  recover: 10 * 24 * 3_600_000,
  refresh_token: 30 * 24 * 3_600_000,
  verify_token: 3_600_000,
  mfa: 30 * 24 * 3_600_000,
  mfa_failure: 30 * 24 * 3_600_000,
  mobile_transfer: 5 * 60_000,
}

export const createToken = (
  em: EntityManager,
  type: TokenType,
  userId: string | null,
  data: Record<string, unknown> | null = null,
) => {
  const token = em.create(AuthenticationTokenSchema, {
    token: randomUUID(),
    type,
    userId,
    active: true,
    data,
  } as AuthenticationToken)
  return token
}

export const isExpired = (token: AuthenticationToken, now = Date.now()) =>
  now - token.created.getTime() > TOKEN_LIFETIME_MS[token.type as TokenType]

/**
 * Spends an active token: one conditional update, so of several requests racing with the same
 * token exactly one gets `true`.
 */
export const consumeToken = async (em: EntityManager, token: AuthenticationToken) =>
  (await em.nativeUpdate(
    AuthenticationTokenSchema,
    { id: token.id, active: true },
    { active: false },
  )) === 1

/**
 * Records a client-chosen single-use value (a JWT verify token) as spent; `false` when it was
 * already recorded for this user, by this request's rival or earlier.
 */
export const claimToken = async (
  em: EntityManager,
  type: TokenType,
  userId: string,
  value: string,
): Promise<boolean> => {
  const result = await em
    .createQueryBuilder(AuthenticationTokenSchema)
    .insert({
      id: randomUUID(),
      token: value,
      type,
      userId,
      active: false,
      created: new Date(),
      modified: new Date(),
    })
    .onConflict(['type', 'userId', 'token'])
    .ignore()
    .execute('run')
  return result.affectedRows === 1
}

/**
 * Finds the user's active token of this type equal to `value`, by its value (never among the
 * newest few, so a flood of new tokens cannot hide the one a user holds). An expired match is
 * deactivated and not returned.
 */
export const findActiveToken = async (
  em: EntityManager,
  type: TokenType,
  userId: string | null,
  value: string,
) => {
  const match = await em.findOne(AuthenticationTokenSchema, {
    type,
    userId,
    token: value,
    active: true,
  })
  if (!match || !constantTimeEqual(match.token, value)) return undefined
  if (isExpired(match)) {
    match.active = false
    await em.flush()
    return undefined
  }
  return match
}

/**
 * Keeps at most `keep` active tokens of this type for the user, the newest: older ones are
 * deactivated. Callers throttle how fast tokens are made, so that in practice only tokens
 * nobody holds any more are dropped.
 */
export const boundActiveTokens = async (
  em: EntityManager,
  type: TokenType,
  userId: string,
  keep: number,
) => {
  await executeStatement(em, (knex) =>
    knex('authentication_tokens')
      .where({ type, user_id: userId, active: true })
      .whereNotIn(
        'id',
        knex('authentication_tokens')
          .select('id')
          .where({ type, user_id: userId, active: true })
          .orderBy([
            { column: 'created', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .limit(keep),
      )
      .update({ active: false, modified: new Date() }),
  )
}

/**
 * Deletes tokens past their lifetime; returns how many went. Several processes may purge at
 * once. A spent JWT verify token outlives any challenge that could carry it, so replays stay
 * refused.
 */
export const purgeExpiredTokens = (em: EntityManager): Promise<number> =>
  purgeInBatches(em.getKnex(), 'authentication_tokens', 'id', (query) =>
    query.where((where) => {
      for (const [type, lifetime] of Object.entries(TOKEN_LIFETIME_MS))
        where.orWhere((one) =>
          one.where('type', type).where('created', '<', new Date(Date.now() - lifetime)),
        )
    }),
  )
