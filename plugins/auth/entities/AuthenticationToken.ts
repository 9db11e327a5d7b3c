// Single-use or expiring tokens: login challenges, setup and recovery links, refresh tokens,
// JWT verify tokens, MFA proofs. Expiry is `created` plus a per-type duration.
import { defineEntity, type InferEntity } from '@mikro-orm/core'
import { baseProperties } from '../../../api/orm.ts'

const p = defineEntity.properties

export const TOKEN_TYPES = [
  'login',
  'register',
  'recover',
  'refresh_token',
  'verify_token',
  'mfa',
  'mfa_failure',
  'mobile_transfer',
] as const
export type TokenType = (typeof TOKEN_TYPES)[number]

export const AuthenticationTokenSchema = defineEntity({
  name: 'AuthenticationToken',
  tableName: 'authentication_tokens',
  properties: {
    ...baseProperties,
    token: p.string().length(255),
    userId: p.uuid().nullable(),
    type: p.string().length(32),
    active: p.boolean().default(true),
    data: p.json<Record<string, unknown>>().nullable(),
  },
})

export type AuthenticationToken = InferEntity<typeof AuthenticationTokenSchema>
