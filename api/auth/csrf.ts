// CSRF for cookie sessions: a double-submit token. The `csrfToken` cookie (128 hex characters,
// readable by the page) is issued on GETs, and changing calls must echo it in `X-CSRF-Token`
// (HTML forms: the `_csrfToken` field). Bearer (JWT) calls are exempt.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { HttpError } from '../errors.ts'
import type { RequestContext } from '../plugin.ts'

export const CSRF_COOKIE = 'csrfToken'
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

export const messages = {
  missingCookie: 'Missing or incorrect CSRF cookie type.',
  mismatch:
    'CSRF token from either the request body or request headers did not match or is missing.',
}

/** A JWT request carries a bearer token or a refresh-token cookie, never a session. */
export const isJwtRequest = (request: Pick<RequestContext, 'headers' | 'cookies'>): boolean =>
  Boolean(request.headers.authorization) || Boolean(request.cookies.get('refresh_token'))

/** 128 hex characters, like passbolt's sha512-of-random token. */
export const newCsrfToken = () => randomBytes(64).toString('hex')

/** Issues the cookie on a GET that arrives without one; returns the token in force. */
export const issueCsrfCookie = (request: RequestContext): string | undefined => {
  const existing = request.cookies.get(CSRF_COOKIE)
  if (existing || !SAFE.has(request.method) || isJwtRequest(request)) return existing
  const token = newCsrfToken()
  request.cookies.set(CSRF_COOKIE, token, {
    httpOnly: false,
    sameSite: 'lax',
    secure: request.secure,
    path: '/',
  })
  return token
}

export const constantTimeEqual = (a: string, b: string): boolean => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/** Throws 403 unless `provided` equals the request's CSRF cookie. */
export const assertCsrfToken = (request: Pick<RequestContext, 'cookies'>, provided: unknown) => {
  const cookie = request.cookies.get(CSRF_COOKIE)
  if (!cookie) throw new HttpError(403, messages.missingCookie)
  if (typeof provided !== 'string' || !constantTimeEqual(provided, cookie))
    throw new HttpError(403, messages.mismatch)
}

/** Throws 403 when a changing, non-JWT call lacks a matching token. */
export const checkCsrf = (request: RequestContext): void => {
  if (SAFE.has(request.method) || isJwtRequest(request)) return
  assertCsrfToken(request, request.headers['x-csrf-token'])
}
