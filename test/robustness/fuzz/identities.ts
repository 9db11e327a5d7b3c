// Who the fuzzer sends as: a guest, a user and an administrator on GPGAuth cookie sessions (with
// and without the CSRF header), and both on JWT. Each signs in for real and signs in again when
// a request ended its session (a logout, a refresh token replayed).
import { gpgAuthLogin, TestClient } from '../../helpers/client.ts'
import { jwtLogin } from '../../helpers/jwt.ts'
import type { TestUser } from '../../helpers/users.ts'

export interface Identity {
  name: string
  /** The client the request goes through (a fresh one for guests). */
  client(): TestClient
  /** Headers to add to a request. */
  headers(): Record<string, string>
  csrf: boolean
  signedIn: boolean
  /** Signs in again when the session was lost; returns whether it had been lost. */
  ensure(): Promise<boolean>
}

/**
 * Waits while the account's sign-in challenges are throttled (a limited number a minute, which
 * the run's own sign-ins can reach): the server doing its job, not a finding.
 */
export const challengeAllowed = async (url: string, user: TestUser) => {
  for (let attempt = 0; attempt < 3; attempt++) {
    const probe = await new TestClient(url).postForm('/auth/login.json', {
      'data[gpg_auth][keyid]': user.fingerprint,
    })
    if (probe.status !== 429) return
    const seconds = Number(probe.headers.get('retry-after') ?? 60)
    await new Promise((resolve) => setTimeout(resolve, Math.min(seconds, 61) * 1000))
  }
}

const cookieIdentity = (url: string, name: string, user: TestUser, csrf: boolean): Identity => {
  let client = new TestClient(url)
  const signIn = async () => {
    await challengeAllowed(url, user)
    client = new TestClient(url)
    const stage1 = await client.postForm('/auth/login.json', {
      'data[gpg_auth][keyid]': user.fingerprint,
    })
    if (!stage1.headers.get('x-gpgauth-user-auth-token'))
      throw new Error(
        `${name} could not sign in: stage 1 answered ${stage1.status} ${stage1.text.slice(0, 300)}`,
      )
    client = new TestClient(url)
    const { stage2 } = await gpgAuthLogin(client, user)
    if (stage2.status !== 200) throw new Error(`${name} could not sign in: ${stage2.text}`)
    await client.fetch('/users/csrf-token.json')
  }
  return {
    name,
    client: () => client,
    headers: () => ({}),
    csrf,
    signedIn: true,
    ensure: async () => {
      const check = await client.fetch('/auth/is-authenticated.json')
      if (check.status === 200 && client.cookies.has('csrfToken')) return false
      await signIn()
      return true
    },
  }
}

const jwtIdentity = (url: string, domain: string, name: string, user: TestUser): Identity => {
  const client = new TestClient(url)
  let token = ''
  const signIn = async () => {
    const { response, answer } = await jwtLogin(new TestClient(url), user.id, user, domain)
    if (!answer) throw new Error(`${name} could not sign in with JWT: ${response.text}`)
    token = answer.access_token
  }
  return {
    name,
    client: () => client,
    headers: () => ({ authorization: `Bearer ${token}` }),
    csrf: false,
    signedIn: true,
    ensure: async () => {
      if (token) {
        const check = await client.fetch('/users/me.json', {
          headers: { authorization: `Bearer ${token}` },
        })
        if (check.status === 200) return false
      }
      await signIn()
      return true
    },
  }
}

const guest = (url: string): Identity => ({
  name: 'guest',
  client: () => new TestClient(url),
  headers: () => ({}),
  csrf: false,
  signedIn: false,
  ensure: async () => false,
})

export const identitiesFor = async (
  url: string,
  /** The address clients sign JWT challenges for (the app URL). */
  domain: string,
  /** `other`: a second user, so that one account's sign-ins stay under the per-account limit. */
  accounts: { user: TestUser; admin: TestUser; other: TestUser },
): Promise<Identity[]> => {
  const identities = [
    guest(url),
    cookieIdentity(url, 'user (cookie)', accounts.user, true),
    cookieIdentity(url, 'user (cookie, no CSRF header)', accounts.other, false),
    cookieIdentity(url, 'administrator (cookie)', accounts.admin, true),
    jwtIdentity(url, domain, 'user (JWT)', accounts.user),
    jwtIdentity(url, domain, 'administrator (JWT)', accounts.admin),
  ]
  for (const identity of identities) await identity.ensure()
  return identities
}
