// JWT sign-in, refresh rotation and logout, played as the apps play them, with real keys.

import { readFileSync } from 'node:fs'
import test from 'ava'
import { importSPKI, jwtVerify } from 'jose'
import { JWT_KEY, startTestApi } from '../helpers/api.ts'
import { generateUserKey, nonce, TestClient } from '../helpers/client.ts'
import { jwtLogin, makeChallenge } from '../helpers/jwt.ts'
import { startSmtp } from '../helpers/smtp.ts'
import { createActiveUser } from '../helpers/users.ts'

const setup = async (t: import('ava').ExecutionContext, env: Record<string, string> = {}) => {
  const api = await startTestApi(t, {
    env: { KEYWARD_APP_URL: 'https://vault.keyward.test/', ...env },
  })
  const user = await createActiveUser(api, 'ada@keyward.test')
  return { api, user, client: new TestClient(api.url), domain: 'https://vault.keyward.test' }
}

test('the signing key is served as PEM and as a bare JWKS', async (t) => {
  const { client } = await setup(t)
  const rsa = await client.fetch('/auth/jwt/rsa.json')
  t.is(rsa.json.body.keydata, readFileSync(JWT_KEY.publicPath, 'utf8'))
  const jwks = await client.fetch('/auth/jwt/jwks.json')
  t.is(jwks.json.header, undefined)
  t.deepEqual(Object.keys(jwks.json.keys[0]).sort(), ['alg', 'e', 'kty', 'n', 'use'])
  t.is(jwks.json.keys[0].alg, 'RS256')
})

test('login answers an encrypted, signed challenge with a 5-minute RS256 access token that works as Bearer', async (t) => {
  const { client, user, domain } = await setup(t)
  const { response, answer } = await jwtLogin(client, user.id, user, domain)
  t.is(response.status, 200)
  t.is(response.json.header.message, 'The authentication was a success.')
  t.is(answer!.domain, 'https://vault.keyward.test/')
  t.is(answer!.version, '1.0.0')
  t.regex(answer!.refresh_token, /^[0-9a-f-]{36}$/)
  const { payload, protectedHeader } = await jwtVerify(
    answer!.access_token,
    await importSPKI(readFileSync(JWT_KEY.publicPath, 'utf8'), 'RS256'),
  )
  t.is(protectedHeader.alg, 'RS256')
  t.is(payload.iss, 'https://vault.keyward.test/')
  t.is(payload.sub, user.id)
  t.true(Math.abs(payload.exp! - Date.now() / 1000 - 300) < 5)
  const fresh = new TestClient(client.baseUrl)
  const me = await fresh.fetch('/users/me.json', {
    headers: { authorization: `Bearer ${answer!.access_token}` },
  })
  t.is(me.status, 200)
  t.is(me.json.body.id, user.id)
  t.is(me.headers.get('x-gpgauth-version'), null, 'no GPGAuth headers on JWT calls')
  t.false(
    me.setCookies.some((c) => c.startsWith('passbolt_session') || c.startsWith('csrfToken')),
    'no session, no CSRF cookie',
  )
  t.is(
    (
      await fresh.fetch('/users/me.json', {
        headers: { authorization: `Bearer ${answer!.access_token}x` },
      })
    ).status,
    401,
  )
})

test('bad challenges: wrong domain (with an alert mail), expired or far expiry, reused verify token, foreign signature', async (t) => {
  const smtp = await startSmtp(t)
  const { client, user, domain } = await setup(t, { KEYWARD_SMTP_URL: smtp.url })
  const refused = async (fields: Parameters<typeof jwtLogin>[4], challengeDomain = domain) => {
    const { response } = await jwtLogin(client, user.id, user, challengeDomain, fields)
    t.deepEqual(
      [response.status, response.json.header.message],
      [400, 'The credentials are invalid.'],
    )
  }
  await refused({}, 'https://evil.example')
  t.true(
    smtp.received.some(
      (m) => m.to.includes('ada@keyward.test') && m.text.includes('Authentication security alert'),
    ),
  )
  const now = Math.floor(Date.now() / 1000)
  await refused({ verify_token_expiry: now - 1 })
  await refused({ verify_token_expiry: now + 7200 })
  await refused({ version: '2.0.0' })
  const token = crypto.randomUUID()
  t.is(
    (await jwtLogin(client, user.id, user, domain, { verify_token: token })).response.status,
    200,
  )
  await refused({ verify_token: token })
  const other = await generateUserKey('mallory@keyward.test')
  const forged = await makeChallenge(client, user, domain, {}, other.privateKey)
  const response = await client.json('/auth/jwt/login.json', 'POST', {
    user_id: user.id,
    challenge: forged,
  })
  t.is(response.status, 400)
})

test('unknown users are 404 and missing credentials 400', async (t) => {
  const { client, user, domain } = await setup(t)
  const challenge = await makeChallenge(client, user, domain)
  const unknown = await client.json('/auth/jwt/login.json', 'POST', {
    user_id: crypto.randomUUID(),
    challenge,
  })
  t.deepEqual(
    [unknown.status, unknown.json.header.message],
    [404, 'The user does not exist or is not active or has been deleted.'],
  )
  const missing = await client.json('/auth/jwt/login.json', 'POST', { user_id: user.id })
  t.deepEqual(
    [missing.status, missing.json.header.message],
    [400, 'The authentication failed. The credentials are missing.'],
  )
})

test('refresh rotates the token; a replayed refresh token is refused and revokes the rest', async (t) => {
  const { client, user, domain } = await setup(t)
  const { answer } = await jwtLogin(client, user.id, user, domain)
  const api = new TestClient(client.baseUrl)
  const first = await api.json('/auth/jwt/refresh.json', 'POST', {
    user_id: user.id,
    refresh_token: answer!.refresh_token,
  })
  t.is(first.status, 200)
  t.truthy(first.json.body.access_token)
  const rotated = api.cookies.get('refresh_token')!
  t.regex(rotated, /^[0-9a-f-]{36}$/)
  t.regex(first.setCookies.find((c) => c.startsWith('refresh_token='))!, /httponly/i)
  const replay = await new TestClient(client.baseUrl).json('/auth/jwt/refresh.json', 'POST', {
    user_id: user.id,
    refresh_token: answer!.refresh_token,
  })
  t.deepEqual(
    [replay.status, replay.json.header.message],
    [400, 'The refresh token provided was already used.'],
  )
  const afterReplay = await new TestClient(client.baseUrl).json('/auth/jwt/refresh.json', 'POST', {
    user_id: user.id,
    refresh_token: rotated,
  })
  t.is(afterReplay.status, 400, 'the replay revoked the rotated token too')
  const malformed = await new TestClient(client.baseUrl).json('/auth/jwt/refresh.json', 'POST', {
    user_id: user.id,
    refresh_token: 'nope',
  })
  t.deepEqual(
    [malformed.status, malformed.json.header.message],
    [400, 'The refresh token should be a valid UUID.'],
  )
})

test('logout spends one refresh token, or all of them with an empty body; it needs the bearer', async (t) => {
  const { client, user, domain } = await setup(t)
  const one = (await jwtLogin(client, user.id, user, domain)).answer!
  const two = (await jwtLogin(client, user.id, user, domain)).answer!
  const bearer = (token: string) => ({
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  })
  const fresh = () => new TestClient(client.baseUrl)
  t.is((await fresh().fetch('/auth/jwt/logout.json', { method: 'POST', body: '{}' })).status, 401)
  const out = await fresh().fetch('/auth/jwt/logout.json', {
    method: 'POST',
    headers: bearer(one.access_token),
    body: JSON.stringify({ refresh_token: one.refresh_token }),
  })
  t.is(out.status, 200)
  t.is(
    (
      await fresh().json('/auth/jwt/refresh.json', 'POST', {
        user_id: user.id,
        refresh_token: one.refresh_token,
      })
    ).status,
    400,
  )
  const all = await fresh().fetch('/auth/jwt/logout.json', {
    method: 'POST',
    headers: bearer(two.access_token),
    body: '{}',
  })
  t.is(all.status, 200)
  t.is(
    (
      await fresh().json('/auth/jwt/refresh.json', 'POST', {
        user_id: user.id,
        refresh_token: two.refresh_token,
      })
    ).status,
    400,
  )
})

test('sign-in failures are throttled per account: 429 in the envelope, other accounts unaffected', async (t) => {
  const { api, client, user } = await setup(t, { KEYWARD_AUTH_RATE_LIMIT: '3' })
  const other = await createActiveUser(api, 'grace@keyward.test')
  const failStage2 = () =>
    client.postForm('/auth/login.json', {
      'data[gpg_auth][keyid]': user.fingerprint,
      'data[gpg_auth][user_token_result]': nonce(),
    })
  const statuses: number[] = []
  for (let i = 0; i < 4; i++) statuses.push((await failStage2()).status)
  t.deepEqual(statuses, [400, 400, 400, 429])
  const limited = await client.postForm('/auth/login.json', {
    'data[gpg_auth][keyid]': user.fingerprint,
  })
  t.is(limited.status, 429, 'even a correct first stage waits')
  t.is(limited.json.header.message, 'Too many attempts. Please wait a minute and try again.')
  // The seconds left in the window, which started with the first failure.
  const retryAfter = Number(limited.headers.get('retry-after'))
  t.true(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`)
  const neighbour = await client.postForm('/auth/login.json', {
    'data[gpg_auth][keyid]': other.fingerprint,
  })
  t.is(neighbour.status, 200, 'another account behind the same address signs in')
})

test('stage-1 challenges count apart from failures; the per-address ceiling covers every account', async (t) => {
  const { api, client, user } = await setup(t, {
    KEYWARD_AUTH_RATE_LIMIT: '3',
    KEYWARD_AUTH_RATE_LIMIT_PER_ADDRESS: '5',
  })
  const challenges: number[] = []
  for (let i = 0; i < 6; i++)
    challenges.push(
      (await client.postForm('/auth/login.json', { 'data[gpg_auth][keyid]': user.fingerprint }))
        .status,
    )
  // A challenge costs the server work even when it succeeds: each counts.
  t.deepEqual(challenges, [200, 200, 200, 200, 200, 429])
  const others = await Promise.all(
    ['b', 'c', 'd'].map((name) => createActiveUser(api, `${name}@keyward.test`)),
  )
  const fail = (key: { fingerprint: string }) =>
    client.postForm('/auth/login.json', {
      'data[gpg_auth][keyid]': key.fingerprint,
      'data[gpg_auth][user_token_result]': nonce(),
    })
  const statuses: number[] = []
  for (const key of [others[0], others[0], others[1], others[1], others[2], others[2]])
    statuses.push((await fail(key)).status)
  t.deepEqual(
    statuses,
    [400, 400, 400, 400, 400, 429],
    'five failures from one address, any account',
  )
})

test('settings advertise jwtAuthentication', async (t) => {
  const { client } = await setup(t)
  t.deepEqual((await client.fetch('/settings.json')).json.body.passbolt.plugins.jwtAuthentication, {
    enabled: true,
  })
})
