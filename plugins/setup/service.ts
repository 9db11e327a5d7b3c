// Account setup and recovery: registration with a single-use, expiring token; key upload that
// activates the account; recovery of an active account against its stored key.
import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql'
import type { AppContext } from '../../api/app.ts'
import { runInTransaction } from '../../api/db/transaction.ts'
import { badRequest, HttpError } from '../../api/errors.ts'
import { consumeToken, createToken, findActiveToken } from '../auth/index.ts'
import {
  attachGroupsUsers,
  canSignIn,
  createUser,
  findUserByUsername,
  type Gpgkey,
  GpgkeySchema,
  loadUser,
  type NewUser,
  serializeUser,
  UsernameTakenError,
  userActivation,
} from '../users/index.ts'
import { checkPublicKey, type KeyFacts } from './key-rules.ts'
import { messages } from './messages.ts'

const setupUrl = (app: AppContext, kind: 'install' | 'recover', userId: string, token: string) =>
  `${app.config.appUrl}setup/${kind}/${userId}/${token}`

/**
 * Creates an inactive user and a setup token, and mails the setup link, in one transaction (the
 * caller's, when it has one): a user is never left without the invitation that sets it up.
 */
export const registerUser = (em: EntityManager, app: AppContext, input: NewUser) =>
  runInTransaction(em, async (tx) => {
    let user: Awaited<ReturnType<typeof createUser>>
    try {
      user = await createUser(tx, input)
    } catch (error) {
      if (error instanceof UsernameTakenError)
        throw badRequest('Could not validate user data.', {
          username: { uniqueUsername: error.message },
        })
      throw error
    }
    const token = createToken(tx, 'register', user.id)
    await tx.flush()
    const url = setupUrl(app, 'install', user.id, token.token)
    await app.mailer.send(tx, {
      to: user.username,
      notification: 'send_user_create',
      subject: `Welcome to Keyward, ${input.firstName}`,
      text: `An account was created for you on ${app.config.appUrl}.\n\nComplete your setup with the Keyward (passbolt) browser extension:\n${url}\n\nThis link works once and expires in 10 days.\n`,
    })
    return { user, url }
  })

type Flow = 'register' | 'recover'

/** The user and live token of a setup or recovery link, or the right 400. */
const openLink = async (em: EntityManager, flow: Flow, userId: string, tokenValue: string) => {
  const bundle = await loadUser(em, userId)
  const eligible =
    bundle &&
    !bundle.user.deleted &&
    (flow === 'register' ? !bundle.user.active : canSignIn(bundle.user))
  if (!bundle || !eligible)
    throw badRequest(flow === 'register' ? messages.userNotFound : messages.activeUserNotFound)
  const token = await findActiveToken(em, flow, userId, tokenValue)
  if (!token) throw badRequest(messages.tokenExpired)
  return { bundle, token }
}

export const startFlow = async (
  em: EntityManager,
  app: AppContext,
  flow: Flow,
  userId: string,
  token: string,
) => {
  const { bundle } = await openLink(em, flow, userId, token)
  const user = serializeUser(bundle, app.config.appUrl)
  await attachGroupsUsers([user], em)
  // Plugins add what the extension needs for this flow (e.g. `user_passphrase_policy`).
  const info: Record<string, unknown> = { user }
  for (const plugin of app.plugins)
    Object.assign(info, await plugin.setupInfo?.({ em, flow, userId }, app))
  return info
}

const keyError = (rule: string, message: string) =>
  new HttpError(400, messages.invalidKey, { gpgkey: { armored_key: { [rule]: message } } })

const storeKey = (em: EntityManager, userId: string, key: KeyFacts) =>
  em.create(GpgkeySchema, {
    userId,
    armoredKey: key.armoredKey,
    bits: key.bits,
    uid: key.uid,
    keyId: key.keyId,
    fingerprint: key.fingerprint,
    type: key.type,
    expires: key.expires,
    keyCreated: key.keyCreated,
    deleted: false,
  } as Gpgkey)

/** Opens the link and checks the uploaded key against the key rules for its user. */
const openLinkWithKey = async (
  tx: EntityManager,
  flow: Flow,
  userId: string,
  tokenValue: string,
  armoredKey: string,
) => {
  const { bundle, token } = await openLink(tx, flow, userId, tokenValue)
  const check = await checkPublicKey(armoredKey, bundle.user.username)
  if (!check.ok) throw keyError(check.rule, check.message)
  return { bundle, token, key: check.key }
}

/** Checks the key, stores it, activates the user and consumes the token, in one transaction. */
export const completeSetup = (
  em: EntityManager,
  userId: string,
  tokenValue: string,
  armoredKey: string,
) =>
  runInTransaction(em, async (tx) => {
    const { bundle, token, key } = await openLinkWithKey(
      tx,
      'register',
      userId,
      tokenValue,
      armoredKey,
    )
    if (!(await consumeToken(tx, token))) throw badRequest(messages.tokenExpired)
    const taken = await tx.findOne(GpgkeySchema, { fingerprint: key.fingerprint, deleted: false })
    if (taken) throw keyError('uniqueFingerprint', messages.keyInUse)
    storeKey(tx, userId, key)
    bundle.user.active = true
    try {
      await tx.flush()
    } catch (error) {
      // Another setup stored the same key between the check and this insert.
      if (error instanceof UniqueConstraintViolationException)
        throw keyError('uniqueFingerprint', messages.keyInUse)
      throw error
    }
  })

/**
 * Lets every plugin follow a completed setup (the metadata plugin gives the new user the
 * metadata keys the server holds). The setup is committed by then and stands: a plugin's
 * failure is logged, not answered.
 */
export const followCompletedSetup = async (em: EntityManager, app: AppContext, userId: string) => {
  for (const { activated } of userActivation.of(app.plugins)) {
    try {
      await runInTransaction(em, (tx) => activated({ em: tx, userId }, app))
    } catch (error) {
      app.logger.error(
        { userId, reason: (error as Error).message },
        'a plugin could not follow a completed setup',
      )
    }
  }
}

/** Starts a recovery: mails a recovery link to an active user. Unknown addresses learn nothing. */
export const requestRecovery = async (em: EntityManager, app: AppContext, username: string) => {
  const user = await findUserByUsername(em, username)
  if (!user || !canSignIn(user)) {
    app.logger.info('recovery asked for an unknown or inactive account')
    return
  }
  // The link and its mail together: a token nobody was told of is no use.
  await runInTransaction(em, async (tx) => {
    const token = createToken(tx, 'recover', user.id)
    await tx.flush()
    await app.mailer.send(tx, {
      to: user.username,
      notification: 'send_user_recover',
      subject: 'Your Keyward account recovery',
      text: `Someone asked to recover your account on ${app.config.appUrl}. If it was you, open:\n${setupUrl(app, 'recover', user.id, token.token)}\n\nIf not, ignore this message.\n`,
    })
  })
}

export const completeRecovery = (
  em: EntityManager,
  userId: string,
  tokenValue: string,
  armoredKey: string,
) =>
  runInTransaction(em, async (tx) => {
    const { bundle, token, key } = await openLinkWithKey(
      tx,
      'recover',
      userId,
      tokenValue,
      armoredKey,
    )
    if (key.fingerprint !== bundle.gpgkey?.fingerprint)
      throw keyError('isUserKey', messages.keyMismatch)
    if (!(await consumeToken(tx, token))) throw badRequest(messages.tokenExpired)
  })

export const abortRecovery = (em: EntityManager, userId: string, tokenValue: string) =>
  runInTransaction(em, async (tx) => {
    const { token } = await openLink(tx, 'recover', userId, tokenValue)
    if (!(await consumeToken(tx, token))) throw badRequest(messages.tokenExpired)
  })
