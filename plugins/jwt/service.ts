// JWT sign-in: the signed-and-encrypted challenge, RS256 access tokens, refresh
// token rotation with replay detection, and logout.
import type { EntityManager } from '@mikro-orm/postgresql'
import { jwtVerify, SignJWT } from 'jose'
import * as openpgp from 'openpgp'
import type { AppContext } from '../../api/app.ts'
import { sha256Hex } from '../../api/auth/hash.ts'
import { runInTransaction } from '../../api/db/transaction.ts'
import { HttpError } from '../../api/errors.ts'
import { decryptClientMessage } from '../../api/openpgp-input.ts'
import { isUuid } from '../../api/uuid.ts'
import { AuthenticationTokenSchema, claimToken, createToken, isExpired } from '../auth/index.ts'
import { activeAdminUsernames, canSignIn, loadUser, UserSchema } from '../users/index.ts'
import { jwtKeys } from './keys.ts'
import { messages } from './messages.ts'

const ACCESS_TOKEN_SECONDS = 5 * 60
const VERIFY_TOKEN_MAX_SECONDS = 3600
/** A signed and encrypted challenge of four short fields fits well within this. */
const MAX_CHALLENGE = 20_000

export const sha256 = sha256Hex

const invalid = () => new HttpError(400, messages.credentialsInvalid)

/** Mails the user and every administrator about a likely attack on the account. */
const alert = async (app: AppContext, em: EntityManager, userId: string, reason: string) => {
  const admins = await activeAdminUsernames(em)
  const user = await em.findOne(UserSchema, { id: userId })
  const recipients = new Set([...(user ? [user.username] : []), ...admins])
  // Queued outside the request's transaction: the refusal that follows rolls that one back,
  // and the alert must outlive it.
  const outside = app.orm.em.fork()
  for (const to of recipients)
    await app.mailer.send(outside, {
      to,
      subject: messages.alertSubject,
      text: `A sign-in attempt on ${app.config.appUrl} for ${user?.username ?? 'an account'} was refused: ${reason}\n`,
    })
  app.logger.warn({ userId, reason }, 'authentication security alert')
}

export const mintAccessToken = async (app: AppContext, userId: string) =>
  new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(app.config.appUrl)
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ACCESS_TOKEN_SECONDS)
    .sign(jwtKeys.get(app).privateKey)

/** The user id of a valid access token, or undefined. `tokenHash` is the token's SHA-256. */
export const verifyAccessToken = async (
  app: AppContext,
  token: string,
  tokenHash: string,
): Promise<string | undefined> => {
  const { publicKey, verified } = jwtKeys.get(app)
  const known = verified.get(tokenHash)
  if (known) return known
  try {
    const { payload } = await jwtVerify(token, publicKey, {
      algorithms: ['RS256'],
      issuer: app.config.appUrl,
      requiredClaims: ['exp', 'iat', 'sub', 'iss'],
    })
    if (typeof payload.sub !== 'string' || !isUuid(payload.sub)) return undefined
    verified.remember(tokenHash, payload.sub, payload.exp! * 1000)
    return payload.sub
  } catch {
    return undefined
  }
}

const newRefreshToken = (em: EntityManager, userId: string, accessToken: string) =>
  createToken(em, 'refresh_token', userId, { session_id: sha256(accessToken) })

interface Challenge {
  version: string
  domain: string
  verify_token: string
  verify_token_expiry: number
}

const readChallenge = async (
  app: AppContext,
  armored: string,
  userKey: openpgp.Key,
): Promise<Challenge | 'bad-signature' | undefined> => {
  let decrypted: string
  try {
    decrypted = await decryptClientMessage(armored, {
      decryptionKeys: app.serverKey.privateKey,
      verificationKeys: userKey,
      expectSigned: true,
      maxArmored: MAX_CHALLENGE,
    })
  } catch (error) {
    return /signature/i.test((error as Error).message) ? 'bad-signature' : undefined
  }
  try {
    const value = JSON.parse(decrypted)
    const keys = value && typeof value === 'object' ? Object.keys(value).sort().join(',') : ''
    return keys === 'domain,verify_token,verify_token_expiry,version'
      ? (value as Challenge)
      : undefined
  } catch {
    return undefined
  }
}

const trimSlash = (url: string) => url.replace(/\/+$/, '')

export const login = (
  em: EntityManager,
  app: AppContext,
  userId: string,
  armoredChallenge: string,
) =>
  runInTransaction(em, async (tx) => {
    const bundle = await loadUser(tx, userId)
    if (!bundle || !canSignIn(bundle.user) || !bundle.gpgkey)
      throw new HttpError(404, messages.userNotFound)
    const userKey = await openpgp.readKey({ armoredKey: bundle.gpgkey.armoredKey })
    const challenge = await readChallenge(app, armoredChallenge, userKey)
    if (challenge === 'bad-signature') {
      await alert(app, tx, userId, 'the user signature could not be verified')
      throw invalid()
    }
    if (!challenge) throw invalid()
    if (
      typeof challenge.domain !== 'string' ||
      trimSlash(challenge.domain) !== trimSlash(app.config.appUrl)
    ) {
      await alert(
        app,
        tx,
        userId,
        `the challenge was made for another domain (${String(challenge.domain).slice(0, 200)})`,
      )
      throw invalid()
    }
    const now = Math.floor(Date.now() / 1000)
    const expiry = challenge.verify_token_expiry
    if (
      challenge.version !== '1.0.0' ||
      typeof expiry !== 'number' ||
      expiry <= now ||
      expiry > now + VERIFY_TOKEN_MAX_SECONDS
    )
      throw invalid()
    if (typeof challenge.verify_token !== 'string' || !isUuid(challenge.verify_token))
      throw invalid()
    await tx.nativeDelete(AuthenticationTokenSchema, {
      type: 'verify_token',
      userId,
      created: { $lt: new Date(Date.now() - VERIFY_TOKEN_MAX_SECONDS * 1000) },
    })
    // Recording the verify token is what spends it: of two logins with one challenge, only the
    // one whose insert goes in continues.
    if (!(await claimToken(tx, 'verify_token', userId, challenge.verify_token.toLowerCase()))) {
      await alert(app, tx, userId, 'a verify token was used twice')
      throw invalid()
    }
    const accessToken = await mintAccessToken(app, userId)
    const refresh = newRefreshToken(tx, userId, accessToken)
    await tx.nativeUpdate(UserSchema, { id: userId }, { lastLoggedIn: new Date() })
    // The providers tell the client a second factor is still owed.
    const providers: string[] = []
    for (const plugin of app.plugins)
      providers.push(...((await plugin.pendingSecondFactors?.(tx, userId, app)) ?? []))
    const answer = JSON.stringify({
      version: '1.0.0',
      domain: app.config.appUrl,
      access_token: accessToken,
      refresh_token: refresh.token,
      verify_token: challenge.verify_token,
      ...(providers.length ? { providers } : {}),
    })
    const encrypted = await openpgp.encrypt({
      message: await openpgp.createMessage({ text: answer }),
      encryptionKeys: userKey,
      signingKeys: app.serverKey.privateKey,
    })
    return { challenge: encrypted as string }
  })

/** Rotates a refresh token: the old one is spent, a new pair is issued. */
export const refresh = async (
  em: EntityManager,
  app: AppContext,
  value: string,
  userId: string | undefined,
) => {
  if (!isUuid(value)) throw new HttpError(400, messages.refreshUuid)
  if (userId !== undefined && !isUuid(userId)) throw new HttpError(400, messages.userUuid)
  const token = await em.findOne(AuthenticationTokenSchema, {
    type: 'refresh_token',
    token: value.toLowerCase(),
  })
  if (!token || (userId && token.userId !== userId.toLowerCase()))
    throw new HttpError(400, messages.noRefreshToken)
  if (!token.active) {
    // A spent token coming back means someone else holds a copy: end every session of the user.
    await em.nativeUpdate(
      AuthenticationTokenSchema,
      { type: 'refresh_token', userId: token.userId, active: true },
      { active: false },
    )
    await alert(app, em, token.userId!, 'a refresh token was used twice')
    throw new HttpError(400, messages.refreshReplayed)
  }
  if (isExpired(token)) {
    await em.nativeUpdate(AuthenticationTokenSchema, { id: token.id }, { active: false })
    throw new HttpError(400, messages.refreshExpired)
  }
  const user = await em.findOne(UserSchema, { id: token.userId! })
  if (!user || !canSignIn(user)) throw new HttpError(400, messages.userNotFound)
  return runInTransaction(em, async (tx) => {
    // Spend the token only if it is still active, so two racing refreshes cannot both win.
    const spent = await tx.nativeUpdate(
      AuthenticationTokenSchema,
      { id: token.id, active: true },
      { active: false },
    )
    if (spent === 0) throw new HttpError(400, messages.refreshReplayed)
    const accessToken = await mintAccessToken(app, user.id)
    const next = newRefreshToken(tx, user.id, accessToken)
    return { accessToken, refreshToken: next.token }
  })
}

/** Spends one refresh token of the user, or all of them when none is named. */
export const logout = (em: EntityManager, userId: string, value: string | undefined) =>
  runInTransaction(em, async (tx) => {
    if (value === undefined) {
      await tx.nativeUpdate(
        AuthenticationTokenSchema,
        { type: 'refresh_token', userId, active: true },
        { active: false },
      )
      return
    }
    if (!isUuid(value)) throw new HttpError(400, messages.refreshUuid)
    const token = await tx.findOne(AuthenticationTokenSchema, {
      type: 'refresh_token',
      userId,
      token: value.toLowerCase(),
      active: true,
    })
    if (!token) throw new HttpError(400, messages.noRefreshToken)
    token.active = false
  })
