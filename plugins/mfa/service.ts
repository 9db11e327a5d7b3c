// MFA state and checks: the organisation's providers, each user's devices,
// the `passbolt_mfa` proof cookie, TOTP and Yubikey verification, and the failed-attempt limit.
import type { EntityManager } from '@mikro-orm/postgresql'
import { generateSecret, verify } from 'otplib'
import type { AppContext } from '../../api/app.ts'
import { constantTimeEqual } from '../../api/auth/csrf.ts'
import type { AuthUser } from '../../api/auth/user.ts'
import { FeedCache } from '../../api/db/change-feed.ts'
import { pluginState, type RequestContext } from '../../api/plugin.ts'
import {
  AuthenticationTokenSchema,
  createToken,
  endUserSessions,
  isExpired,
} from '../auth/index.ts'
import {
  readAccountSetting,
  readAccountSettingOfUsers,
  readOrganizationSetting,
  writeAccountSetting,
} from '../settings/index.ts'
import { UserSchema } from '../users/index.ts'

export const MFA_COOKIE = 'passbolt_mfa'
export const PROVIDERS = ['totp', 'yubikey'] as const
export type Provider = (typeof PROVIDERS)[number]

export interface OrganizationMfa {
  providers: Provider[]
  yubikey?: { clientId: string; secretKey: string; validationUrl: string }
}

export interface AccountMfa {
  totp?: { otpProvisioningUri: string; created: string }
  yubikey?: { id: string; created: string }
}

const ORG_PROPERTY = 'mfa'
const ACCOUNT_PROPERTY = 'mfa'
const REMEMBER_MS = 30 * 24 * 3_600_000

export const readOrganizationMfa = async (em: EntityManager): Promise<OrganizationMfa> =>
  (await readOrganizationSetting<OrganizationMfa>(em, ORG_PROPERTY)) ?? { providers: [] }

export const readAccountMfa = async (em: EntityManager, userId: string): Promise<AccountMfa> =>
  (await readAccountSetting<AccountMfa>(em, userId, ACCOUNT_PROPERTY)) ?? {}

export const writeAccountMfa = (em: EntityManager, userId: string, value: AccountMfa) =>
  writeAccountSetting(em, userId, ACCOUNT_PROPERTY, Object.keys(value).length ? value : undefined)

const organizationMfa = pluginState<FeedCache<OrganizationMfa>>('mfa.organization')

/** Keeps the organisation's MFA settings until the change feed announces a settings change. */
export const initOrganizationMfaCache = (app: AppContext) =>
  organizationMfa.set(app, new FeedCache(app.changes, 'organization_settings', 'table'))

/**
 * The organisation's MFA settings for the per-request guard, kept in memory: without
 * providers no request pays for a second lookup.
 */
export const cachedOrganizationMfa = (app: AppContext, em: EntityManager) =>
  organizationMfa.get(app).get(ORG_PROPERTY, () => readOrganizationMfa(em))

/** Called after saving the settings, so this process never serves the old ones. */
export const forgetOrganizationMfa = (app: AppContext) =>
  organizationMfa.get(app).forget(ORG_PROPERTY)

/** Providers both the organisation and the user have turned on. */
export const userProviders = async (
  em: EntityManager,
  userId: string,
  org?: OrganizationMfa,
): Promise<Provider[]> => {
  const organization = org ?? (await readOrganizationMfa(em))
  if (organization.providers.length === 0) return []
  const account = await readAccountMfa(em, userId)
  return organization.providers.filter((provider) => account[provider])
}

/** Whether the request carries a live MFA proof for this sign-in; a stale one is cleared. */
export const hasValidProof = async (
  em: EntityManager,
  request: RequestContext,
  user: AuthUser,
): Promise<boolean> => {
  const value = request.cookies.get(MFA_COOKIE)
  if (!value) return false
  const candidates = await em.find(
    AuthenticationTokenSchema,
    { type: 'mfa', userId: user.id, active: true },
    { limit: 100, orderBy: { created: 'desc' } },
  )
  const token = candidates.find((candidate) => constantTimeEqual(candidate.token, value))
  const data = (token?.data ?? {}) as { remember?: boolean; session_id?: string }
  const valid =
    token !== undefined &&
    !isExpired(token) &&
    (data.remember === true || (data.session_id !== undefined && data.session_id === user.signInId))
  if (!valid) {
    if (token) await em.nativeUpdate(AuthenticationTokenSchema, { id: token.id }, { active: false })
    request.cookies.set(MFA_COOKIE, null, {
      path: '/',
      httpOnly: true,
      secure: request.secure,
      overwrite: true,
    })
  }
  return valid
}

/** Records a passed second factor: an `mfa` token bound to this sign-in, and its cookie. */
export const grantProof = async (
  em: EntityManager,
  request: RequestContext,
  user: AuthUser,
  provider: Provider,
  remember: boolean,
) => {
  await em.nativeDelete(AuthenticationTokenSchema, { type: 'mfa_failure', userId: user.id })
  const token = createToken(em, 'mfa', user.id, {
    provider,
    remember,
    session_id: user.signInId,
    user_agent: String(request.headers['user-agent'] ?? '').slice(0, 256),
  })
  await em.flush()
  request.cookies.set(MFA_COOKIE, token.token, {
    path: '/',
    httpOnly: true,
    secure: request.secure,
    sameSite: 'lax',
    overwrite: true,
    ...(remember ? { expires: new Date(Date.now() + REMEMBER_MS) } : {}),
  })
}

/**
 * Counts a failed one-time password. Past the limit since the last sign-in, the user is signed
 * out everywhere (sessions ended, refresh tokens spent) and `true` is returned.
 */
export const recordFailure = async (
  em: EntityManager,
  app: AppContext,
  user: AuthUser,
): Promise<boolean> => {
  createToken(em, 'mfa_failure', user.id)
  await em.flush()
  const account = await em.findOneOrFail(UserSchema, { id: user.id })
  const since = account.lastLoggedIn ?? new Date(0)
  const failures = await em.count(AuthenticationTokenSchema, {
    type: 'mfa_failure',
    userId: user.id,
    created: { $gte: since },
  })
  if (failures <= app.config.mfaMaxAttempts) return false
  await endUserSessions(em, user.id)
  await em.nativeUpdate(
    AuthenticationTokenSchema,
    { type: 'refresh_token', userId: user.id, active: true },
    { active: false },
  )
  await em.nativeDelete(AuthenticationTokenSchema, { type: 'mfa_failure', userId: user.id })
  return true
}

/**
 * A new secret's provisioning URI, with its parameters in passbolt's order: the official
 * extension accepts only `otpauth://totp/LABEL?issuer=…&secret=…` and shows no QR code
 * for any other form.
 */
export const newTotpUri = (username: string) =>
  `otpauth://totp/Keyward:${encodeURIComponent(username)}?issuer=Keyward&secret=${generateSecret()}`

export const secretOfUri = (uri: string): string | undefined => {
  try {
    const url = new URL(uri)
    const secret = url.searchParams.get('secret')
    return url.protocol === 'otpauth:' &&
      url.host === 'totp' &&
      secret &&
      /^[A-Z2-7]{16,128}=*$/i.test(secret)
      ? secret
      : undefined
  } catch {
    return undefined
  }
}

/** RFC 6238 check with one time step of drift either way. */
export const checkTotp = async (uri: string, code: string) => {
  const secret = secretOfUri(uri)
  if (!secret) return false
  try {
    return (await verify({ secret, token: code, epochTolerance: 30 })).valid
  } catch {
    return false
  }
}

/** The users among these with a second factor the organisation allows (one query for all). */
export const usersWithMfa = async (
  app: AppContext,
  em: EntityManager,
  userIds: readonly string[],
): Promise<Set<string>> => {
  const organization = await cachedOrganizationMfa(app, em)
  if (organization.providers.length === 0) return new Set()
  const accounts = await readAccountSettingOfUsers<AccountMfa>(em, userIds, ACCOUNT_PROPERTY)
  return new Set(
    [...accounts]
      .filter(([, account]) => organization.providers.some((provider) => account[provider]))
      .map(([userId]) => userId),
  )
}
