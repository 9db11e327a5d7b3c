// Server-side sessions behind the `passbolt_session` cookie: opened at login with a fresh id,
// ended by logout or inactivity; only the SHA-256 of the cookie value is stored.
import { randomBytes } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { sha256Hex } from '../../api/auth/hash.ts'
import { preparedQuery } from '../../api/db/prepared.ts'
import { toDate } from '../../api/orm.ts'
import type { RequestContext } from '../../api/plugin.ts'
import { type Session, SessionSchema } from './entities/Session.ts'

export const SESSION_COOKIE = 'passbolt_session'

/** Activity is written at most this often, so reads do not each cost a write. */
const TOUCH_INTERVAL_MS = 30_000

const hash = sha256Hex

const cookieOptions = (request: RequestContext) =>
  ({ httpOnly: true, sameSite: 'lax', secure: request.secure, path: '/', overwrite: true }) as const

const selectSession = preparedQuery<{
  id: string
  user_id: string | null
  last_activity: string
  created: string
}>(1, (knex, id) =>
  knex('sessions').where('id', id).select('id', 'user_id', 'last_activity', 'created'),
)

/** The live session of the request's cookie, or undefined (an expired one is deleted). */
export const loadSession = async (
  em: EntityManager,
  request: RequestContext,
  timeoutMinutes: number,
) => {
  const value = request.cookies.get(SESSION_COOKIE)
  if (!value || value.length > 128) return undefined
  const [row] = await selectSession(em, hash(value))
  if (!row) return undefined
  const session: Session = {
    id: row.id,
    userId: row.user_id,
    lastActivity: toDate(row.last_activity)!,
    created: toDate(row.created)!,
  }
  if (Date.now() - session.lastActivity.getTime() > timeoutMinutes * 60_000) {
    await em.nativeDelete(SessionSchema, { id: session.id })
    return undefined
  }
  return session
}

/** Opens a session for the user with a new id (the old one, if any, is dropped). */
export const openSession = async (
  em: EntityManager,
  request: RequestContext,
  userId: string,
  previous?: Session,
) => {
  if (previous) await em.nativeDelete(SessionSchema, { id: previous.id })
  const value = randomBytes(32).toString('base64url')
  const session = em.create(SessionSchema, {
    id: hash(value),
    userId,
    lastActivity: new Date(),
  } as Session)
  await em.flush()
  request.cookies.set(SESSION_COOKIE, value, cookieOptions(request))
  return session
}

export const endSession = async (
  em: EntityManager,
  request: RequestContext,
  session: Session | undefined,
) => {
  if (session) await em.nativeDelete(SessionSchema, { id: session.id })
  if (request.cookies.get(SESSION_COOKIE))
    request.cookies.set(SESSION_COOKIE, null, cookieOptions(request))
}

export const touchSession = async (em: EntityManager, session: Session) => {
  if (Date.now() - session.lastActivity.getTime() < TOUCH_INTERVAL_MS) return
  await em.nativeUpdate(SessionSchema, { id: session.id }, { lastActivity: new Date() })
}

export const endUserSessions = (em: EntityManager, userId: string) =>
  em.nativeDelete(SessionSchema, { userId })
