// GPGAuth v1.3.0 pieces: the token format (`gpgauthv1.3.0|36|<uuid>|gpgauthv1.3.0`), the
// PHP-style encoding of the user auth token header, and the headers on every non-JWT response.
import * as openpgp from 'openpgp'
import { decryptClientMessage } from '../../api/openpgp-input.ts'
import { UUID_SOURCE } from '../../api/uuid.ts'

export const VERSION = '1.3.0'
const TOKEN = new RegExp(`^gpgauthv1\\.3\\.0\\|36\\|(${UUID_SOURCE})\\|gpgauthv1\\.3\\.0$`, 'i')

/** The UUID inside a well-formed token, or undefined. */
export const tokenUuid = (token: string): string | undefined =>
  TOKEN.exec(token)?.[1]?.toLowerCase()

export const formatToken = (uuid: string) => `gpgauthv1.3.0|36|${uuid}|gpgauthv1.3.0`

/** PHP `urlencode` then `quotemeta`, as the extension reverses it. */
export const encodeUserAuthToken = (armored: string): string =>
  encodeURIComponent(armored)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+')
    .replace(/[.\\+*?[^\]$()]/g, '\\$&')

export const BASE_HEADERS: Record<string, string> = {
  'X-GPGAuth-Version': VERSION,
  'X-GPGAuth-Login-URL': '/auth/login',
  'X-GPGAuth-Logout-URL': '/auth/logout',
  'X-GPGAuth-Verify-URL': '/auth/verify',
  'X-GPGAuth-Pubkey-URL': '/auth/verify.json',
  'Access-Control-Expose-Headers':
    'X-GPGAuth-Verify-Response, X-GPGAuth-Progress, X-GPGAuth-User-Auth-Token, X-GPGAuth-Authenticated, X-GPGAuth-Refer, X-GPGAuth-Debug, X-GPGAuth-Error, X-GPGAuth-Pubkey, X-GPGAuth-Logout-Url, X-GPGAuth-Version',
}

/** A stage-0 nonce is a short token: its encrypted form needs no more than this. */
const MAX_VERIFY_TOKEN = 20_000

/** Decrypts a nonce sent to the server key; undefined when it is not one. */
export const decryptForServer = async (
  armored: string,
  serverKey: openpgp.PrivateKey,
): Promise<string | undefined> => {
  try {
    return await decryptClientMessage(armored, {
      decryptionKeys: serverKey,
      maxArmored: MAX_VERIFY_TOKEN,
    })
  } catch {
    return undefined
  }
}

/** Encrypts to the user's key and signs with the server key. */
export const encryptForUser = async (
  text: string,
  userKey: openpgp.Key,
  serverKey: openpgp.PrivateKey,
) =>
  (await openpgp.encrypt({
    message: await openpgp.createMessage({ text }),
    encryptionKeys: userKey,
    signingKeys: serverKey,
  })) as string
