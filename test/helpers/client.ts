// A client that behaves like the official browser extension over real HTTP: it keeps cookies,
// sends X-CSRF-Token from the csrfToken cookie, and speaks GPGAuth with real OpenPGP keys.
import * as openpgp from 'openpgp'
import { readResponse } from './response.ts'

export class TestClient {
  readonly cookies = new Map<string, string>()

  constructor(readonly baseUrl: string) {}

  private remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';')
      const [name, ...rest] = pair.split('=')
      const value = rest.join('=')
      const expired = attributes.some((a) => /expires=Thu, 01 Jan 1970/i.test(a))
      if (expired || value === '') this.cookies.delete(name.trim())
      else this.cookies.set(name.trim(), value)
    }
  }

  async fetch(path: string, init: RequestInit & { csrf?: boolean } = {}) {
    const { csrf = true, ...rest } = init
    const headers = new Headers(rest.headers)
    if (this.cookies.size)
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '))
    const token = this.cookies.get('csrfToken')
    if (csrf && token && !headers.has('x-csrf-token')) headers.set('x-csrf-token', token)
    const response = await fetch(`${this.baseUrl}${path}`, { ...rest, headers, redirect: 'manual' })
    this.remember(response)
    const { json, ...read } = await readResponse(response)
    return {
      ...read,
      // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the server answered
      json: json as any,
      setCookies: response.headers.getSetCookie(),
    }
  }

  /** Posts multipart fields the way the extension's FormData does. */
  postForm(path: string, fields: Record<string, string>) {
    const form = new FormData()
    for (const [name, value] of Object.entries(fields)) form.append(name, value)
    return this.fetch(path, { method: 'POST', body: form })
  }

  json(path: string, method: string, body: unknown) {
    return this.fetch(path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  }
}

export interface TestUserKey {
  privateKey: openpgp.PrivateKey
  publicKey: openpgp.Key
  armoredPublicKey: string
  fingerprint: string
}

export const generateUserKey = async (
  email: string,
  type: 'ecc' | 'rsa' = 'ecc',
  rsaBits = 3072,
): Promise<TestUserKey> => {
  const { privateKey, publicKey } = await openpgp.generateKey(
    type === 'ecc'
      ? {
          type: 'ecc',
          curve: 'curve25519Legacy',
          userIDs: [{ name: 'Test User', email }],
          format: 'object',
        }
      : { type: 'rsa', rsaBits, userIDs: [{ name: 'Test User', email }], format: 'object' },
  )
  return {
    privateKey,
    publicKey,
    armoredPublicKey: publicKey.armor(),
    fingerprint: publicKey.getFingerprint().toUpperCase(),
  }
}

/** Reverses the server's PHP urlencode + quotemeta of X-GPGAuth-User-Auth-Token, as the extension does. */
export const decodeUserAuthToken = (header: string) =>
  decodeURIComponent(header.replace(/\+/g, ' ')).replace(/\\(.)/g, '$1')

export const nonce = () => `gpgauthv1.3.0|36|${crypto.randomUUID()}|gpgauthv1.3.0`

/** GPGAuth stages 0 to 2; returns each stage's response. */
export const gpgAuthLogin = async (client: TestClient, key: TestUserKey) => {
  const server = await client.fetch('/auth/verify.json')
  const serverKey = await openpgp.readKey({ armoredKey: server.json.body.keydata })
  const sent = nonce()
  const encrypted = (await openpgp.encrypt({
    message: await openpgp.createMessage({ text: sent }),
    encryptionKeys: serverKey,
  })) as string
  const stage0 = await client.postForm('/auth/verify.json', {
    'data[gpg_auth][keyid]': key.fingerprint,
    'data[gpg_auth][server_verify_token]': encrypted,
  })
  const stage1 = await client.postForm('/auth/login.json', {
    'data[gpg_auth][keyid]': key.fingerprint,
  })
  const armored = decodeUserAuthToken(stage1.headers.get('x-gpgauth-user-auth-token') ?? '')
  const { data, signatures } = await openpgp.decrypt({
    message: await openpgp.readMessage({ armoredMessage: armored }),
    decryptionKeys: key.privateKey,
    verificationKeys: serverKey,
    expectSigned: true,
  })
  await signatures[0].verified
  const stage2 = await client.postForm('/auth/login.json', {
    'data[gpg_auth][keyid]': key.fingerprint,
    'data[gpg_auth][user_token_result]': String(data),
  })
  return { sent, stage0, stage1, stage2, token: String(data) }
}
