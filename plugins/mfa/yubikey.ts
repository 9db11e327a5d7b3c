// Yubikey OTP: modhex shape, the key id (first 12 characters), and verification against a
// Yubico-compatible validation server (protocol 2.0, HMAC-SHA1 signed request and answer).
import { createHmac, randomBytes } from 'node:crypto'
import { constantTimeEqual } from '../../api/auth/csrf.ts'

export const MODHEX_OTP = /^[cbdefghijklnrtuv]{44}$/

export const keyIdOf = (otp: string) => otp.slice(0, 12)

export interface ValidationServer {
  url: string
  clientId: string
  /** Base64 API key of the client id. */
  secretKey: string
}

/** Signs parameters the Yubico way: HMAC-SHA1 over `k=v&…` sorted by key, base64. */
export const signParams = (params: Record<string, string>, secretKey: string) => {
  const text = Object.keys(params)
    .sort()
    .map((key) => `${key}=${params[key]}`)
    .join('&')
  return createHmac('sha1', Buffer.from(secretKey, 'base64')).update(text).digest('base64')
}

/** True only for a fresh, valid OTP whose signed answer checks out. */
export const verifyYubikeyOtp = async (server: ValidationServer, otp: string): Promise<boolean> => {
  const nonce = randomBytes(16).toString('hex')
  const params = { id: server.clientId, otp, nonce }
  const url = new URL(server.url)
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
  url.searchParams.set('h', signParams(params, server.secretKey))
  let text: string
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) })
    text = await response.text()
  } catch {
    return false
  }
  const answer = Object.fromEntries(
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  )
  const { h, ...signed } = answer
  if (!h || !constantTimeEqual(h, signParams(signed, server.secretKey))) return false
  return answer.status === 'OK' && answer.otp === otp && answer.nonce === nonce
}
