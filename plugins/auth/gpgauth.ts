// GPGAuth v1.3.0 pieces (fact sheet §4.3-4.5): the token format, the PHP-style encoding of the
// user auth token header, and the headers on every non-JWT response.
import * as openpgp from 'openpgp'

export const VERSION = '1.3.0'
const TOKEN =
  /^gpgauthv1\.3\.0\|36\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\|gpgauthv1\.3\.0$/i

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

/** Decrypts a message sent to the server key; undefined when it is not one. */
export const decryptForServer = async (
  armored: string,
  serverKey: openpgp.PrivateKey,
): Promise<string | undefined> => {
  try {
    const message = await openpgp.readMessage({ armoredMessage: armored })
    const { data } = await openpgp.decrypt({ message, decryptionKeys: serverKey })
    return String(data)
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
