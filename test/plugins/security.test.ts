// Regression tests for the security defects found in the sign-in routes: decompression bombs,
// single-use tokens under concurrency, database errors a client could provoke, access tokens
// without the required claims, cacheable per-user answers, slow clients, and routes JWT
// requests may not use.

import { readFileSync } from 'node:fs'
import { createConnection } from 'node:net'
import test, { type ExecutionContext } from 'ava'
import { importPKCS8, SignJWT } from 'jose'
import * as openpgp from 'openpgp'
import { generate } from 'otplib'
import { registerUser } from '../../plugins/setup/index.ts'
import { JWT_KEY, startTestApi, type TestApi } from '../helpers/api.ts'
import { decompressionBomb } from '../helpers/bomb.ts'
import {
  decodeUserAuthToken,
  generateUserKey,
  gpgAuthLogin,
  TestClient,
} from '../helpers/client.ts'
import { query } from '../helpers/database.ts'
import { jwtLogin, makeChallenge } from '../helpers/jwt.ts'
import { createActiveUser } from '../helpers/users.ts'

const DOMAIN = 'https://vault.keyward.test'

const setup = async (t: ExecutionContext, env: Record<string, string> = {}) => {
  const api = await startTestApi(t, { env: { KEYWARD_APP_URL: `${DOMAIN}/`, ...env } })
  const user = await createActiveUser(api, 'ada@keyward.test')
  const sql = (text: string, values: unknown[] = []) => query(api.app.database.url, text, values)
  return { api, user, sql, client: new TestClient(api.url) }
}

const statusesOf = (responses: { status: number }[]) =>
  responses.map((response) => response.status).sort()

/** Time until the server answers a quick request, while something else may be going on. */
const timeHealthcheck = async (api: TestApi) => {
  const started = performance.now()
  const response = await fetch(`${api.url}/healthcheck/status.json`)
  await response.text()
  return performance.now() - started
}

/**
 * The CPU this process spent while `work` ran, in ms. The server runs in this process, and the
 * tests using it run serially, so the figure is the request's own: unlike the wall time, a busy
 * machine does not inflate it. Expanding the 1 GiB bomb would take many seconds of it.
 */
const cpuMsOf = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const before = process.cpuUsage()
  const result = await work()
  const used = process.cpuUsage(before)
  return [result, (used.user + used.system) / 1000]
}

test.serial(
  'a decompression bomb as the GPGAuth verify token is refused at once; the server stays responsive',
  async (t) => {
    const { api, user, client } = await setup(t)
    const serverKey = await openpgp.readKey({ armoredKey: api.app.serverKey.armoredPublicKey })
    const bomb = await decompressionBomb(serverKey)
    t.true(bomb.length < 2000, 'a small message')
    const rssBefore = process.memoryUsage().rss
    const [[response, meanwhile], cpuMs] = await cpuMsOf(async () => {
      const answer = client.postForm('/auth/verify.json', {
        'data[gpg_auth][keyid]': user.fingerprint,
        'data[gpg_auth][server_verify_token]': bomb,
      })
      const meanwhile = await timeHealthcheck(api)
      return [await answer, meanwhile] as const
    })
    t.is(response.status, 400)
    t.is(response.json.header.message, 'The server verify token is missing or invalid.')
    t.true(cpuMs < 1500, `refused after ${Math.round(cpuMs)} ms of CPU`)
    // A blocked event loop would hold the healthcheck until the bomb was dealt with; the bound is
    // loose because a loaded machine delays every answer.
    t.true(meanwhile < 10_000, `another request answered in ${Math.round(meanwhile)} ms`)
    const grown = (process.memoryUsage().rss - rssBefore) / 2 ** 20
    t.true(grown < 200, `memory grew by ${Math.round(grown)} MiB`)
  },
)

test.serial('a decompression bomb as the JWT login challenge is refused at once', async (t) => {
  const { user, api, client } = await setup(t)
  const serverKey = await openpgp.readKey({ armoredKey: api.app.serverKey.armoredPublicKey })
  const challenge = await decompressionBomb(serverKey)
  const [response, cpuMs] = await cpuMsOf(() =>
    client.json('/auth/jwt/login.json', 'POST', { user_id: user.id, challenge }),
  )
  t.is(response.status, 400)
  t.is(response.json.header.message, 'The credentials are invalid.')
  t.true(cpuMs < 1500, `refused after ${Math.round(cpuMs)} ms of CPU`)
})

test('one GPGAuth challenge answered six times in parallel opens exactly one session', async (t) => {
  const { api, user } = await setup(t)
  const client = new TestClient(api.url)
  const stage1 = await client.postForm('/auth/login.json', {
    'data[gpg_auth][keyid]': user.fingerprint,
  })
  const serverKey = await openpgp.readKey({ armoredKey: api.app.serverKey.armoredPublicKey })
  const { data } = await openpgp.decrypt({
    message: await openpgp.readMessage({
      armoredMessage: decodeUserAuthToken(stage1.headers.get('x-gpgauth-user-auth-token')!),
    }),
    decryptionKeys: user.privateKey,
    verificationKeys: serverKey,
  })
  const attempts = await Promise.all(
    Array.from({ length: 6 }, () =>
      new TestClient(api.url).postForm('/auth/login.json', {
        'data[gpg_auth][keyid]': user.fingerprint,
        'data[gpg_auth][user_token_result]': String(data),
      }),
    ),
  )
  t.deepEqual(statusesOf(attempts), [200, 400, 400, 400, 400, 400])
  t.is(attempts.filter((a) => a.setCookies.some((c) => /^passbolt_session=[^;]/.test(c))).length, 1)
})

test('one JWT login challenge sent six times in parallel issues exactly one token pair', async (t) => {
  const { api, user, client, sql } = await setup(t)
  const challenge = await makeChallenge(client, user, DOMAIN)
  const attempts = await Promise.all(
    Array.from({ length: 6 }, () =>
      new TestClient(api.url).json('/auth/jwt/login.json', 'POST', { user_id: user.id, challenge }),
    ),
  )
  t.deepEqual(statusesOf(attempts), [200, 400, 400, 400, 400, 400])
  const refresh = await sql(
    "select count(*)::int as n from authentication_tokens where type = 'refresh_token' and user_id = $1",
    [user.id],
  )
  t.is(refresh[0].n, 1)
})

test('one setup link completed six times in parallel activates once and stores one key', async (t) => {
  const { api, sql } = await setup(t)
  const { user, url } = await registerUser(api.app.orm.em.fork(), api.app, {
    username: 'grace@keyward.test',
    firstName: 'Grace',
    lastName: 'Hopper',
    role: 'user',
  })
  const token = url.split('/').at(-1)!
  const keys = await Promise.all(
    Array.from({ length: 6 }, () => generateUserKey('grace@keyward.test')),
  )
  const attempts = await Promise.all(
    keys.map((key) =>
      new TestClient(api.url).json(`/setup/complete/${user.id}.json`, 'POST', {
        authenticationtoken: { token },
        gpgkey: { armored_key: key.armoredPublicKey },
      }),
    ),
  )
  t.deepEqual(statusesOf(attempts), [200, 400, 400, 400, 400, 400])
  const stored = await sql('select count(*)::int as n from gpgkeys where user_id = $1', [user.id])
  t.is(stored[0].n, 1)
})

test('one key cannot be bound to two pending users, even by parallel setups', async (t) => {
  const { api, sql } = await setup(t)
  const register = (username: string) =>
    registerUser(api.app.orm.em.fork(), api.app, {
      username,
      firstName: 'Twin',
      lastName: 'User',
      role: 'user',
    })
  const first = await register('one@keyward.test')
  const second = await register('two@keyward.test')
  // One key carrying both addresses passes each user's key rules.
  const { publicKey } = await openpgp.generateKey({
    type: 'ecc',
    curve: 'curve25519Legacy',
    userIDs: [{ email: 'one@keyward.test' }, { email: 'two@keyward.test' }],
    format: 'armored',
  })
  const attempts = await Promise.all(
    [first, second].map(({ user, url }) =>
      new TestClient(api.url).json(`/setup/complete/${user.id}.json`, 'POST', {
        authenticationtoken: { token: url.split('/').at(-1) },
        gpgkey: { armored_key: publicKey },
      }),
    ),
  )
  t.deepEqual(statusesOf(attempts), [200, 400])
  const refused = attempts.find((a) => a.status === 400)!
  t.deepEqual(refused.json.body, {
    gpgkey: { armored_key: { uniqueFingerprint: 'This key is already used by another user.' } },
  })
  const live = await sql('select count(*)::int as n from gpgkeys where not deleted')
  t.is(live[0].n, 2, 'ada and one of the twins')
  const active = await sql(
    "select count(*)::int as n from users where username in ('one@keyward.test', 'two@keyward.test') and active",
  )
  t.is(active[0].n, 1, 'the refused setup activated nobody')
})

test('a 36-character user id that is not a UUID is a 400, not a database error', async (t) => {
  const { user, client } = await setup(t)
  const response = await client.json('/auth/jwt/login.json', 'POST', {
    user_id: 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
    challenge: await makeChallenge(client, user, DOMAIN),
  })
  t.is(response.status, 400)
  t.is(response.json.header.message, 'The credentials are invalid.')
})

test('concurrent first writes of MFA settings and of a TOTP device all succeed or answer 4xx', async (t) => {
  const { api } = await setup(t)
  const admin = await createActiveUser(api, 'admin@keyward.test', { role: 'admin' })
  const adminClient = new TestClient(api.url)
  await gpgAuthLogin(adminClient, admin)
  const writes = await Promise.all(
    Array.from({ length: 6 }, () =>
      adminClient.json('/mfa/settings.json', 'PUT', { providers: ['totp'] }),
    ),
  )
  t.deepEqual(statusesOf(writes), Array(6).fill(200))
  const uri = (await adminClient.fetch('/mfa/setup/totp.json')).json.body.otpProvisioningUri
  const secret = new URL(uri).searchParams.get('secret')!
  const code = await generate({ secret })
  const setups = await Promise.all(
    Array.from({ length: 6 }, () =>
      adminClient.json('/mfa/setup/totp.json', 'POST', { otpProvisioningUri: uri, totp: code }),
    ),
  )
  t.true(
    setups.every((response) => response.status < 500),
    statusesOf(setups).join(','),
  )
  t.true(setups.some((response) => response.status === 200))
})

test('an access token must carry exp, iat, sub and the issuer', async (t) => {
  const { user, client } = await setup(t)
  const { answer } = await jwtLogin(client, user.id, user, DOMAIN)
  t.is(
    (
      await client.fetch('/users/me.json', {
        headers: { authorization: `Bearer ${answer!.access_token}` },
      })
    ).status,
    200,
  )
  const key = await importPKCS8(readFileSync(JWT_KEY.privatePath, 'utf8'), 'RS256')
  const forge = (claims: { exp?: boolean; iat?: boolean; sub?: boolean; iss?: boolean }) => {
    const jwt = new SignJWT({}).setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    if (claims.iss !== false) jwt.setIssuer(`${DOMAIN}/`)
    if (claims.sub !== false) jwt.setSubject(user.id)
    if (claims.iat !== false) jwt.setIssuedAt()
    if (claims.exp !== false) jwt.setExpirationTime('5m')
    return jwt.sign(key)
  }
  const call = async (token: string) =>
    (await client.fetch('/users/me.json', { headers: { authorization: `Bearer ${token}` } })).status
  t.is(await call(await forge({})), 200, 'the forged token is otherwise valid')
  t.is(await call(await forge({ exp: false })), 401)
  t.is(await call(await forge({ iat: false })), 401)
  t.is(await call(await forge({ sub: false })), 401)
  t.is(await call(await forge({ iss: false })), 401)
})

test('answers that depend on the caller are never stored by a cache', async (t) => {
  const { user, client } = await setup(t)
  await gpgAuthLogin(client, user)
  for (const path of ['/users/me.json', '/settings.json', '/roles.json', '/nothing.json']) {
    const response = await client.fetch(path)
    t.is(response.headers.get('cache-control'), 'no-store', path)
  }
  const page = await client.fetch('/app/passwords')
  t.is(page.headers.get('cache-control'), 'no-store', 'the signed-in workspace page too')
})

/** Opens a raw connection, sends `head`, then drips `body` one byte per `everyMs`. */
const dripRequest = (url: string, head: string, body: string, everyMs: number) =>
  new Promise<{ closedAfterMs: number; sent: number }>((resolve) => {
    const { hostname, port } = new URL(url)
    const socket = createConnection({ host: hostname, port: Number(port) })
    const started = performance.now()
    let sent = 0
    let timer: NodeJS.Timeout | undefined
    socket.on('connect', () => {
      socket.write(head)
      timer = setInterval(() => {
        if (sent < body.length && socket.writable) socket.write(body[sent++])
      }, everyMs)
    })
    socket.on('data', () => {})
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(timer)
      resolve({ closedAfterMs: performance.now() - started, sent })
    })
  })

test('a client sending its request one byte at a time is cut off after the request timeout', async (t) => {
  const { api } = await setup(t, { KEYWARD_REQUEST_TIMEOUT: '2' })
  const body = JSON.stringify({ user_id: 'x'.repeat(200), challenge: 'y'.repeat(200) })
  const slowBody = await dripRequest(
    api.url,
    `POST /auth/jwt/login.json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    body,
    100,
  )
  t.true(
    slowBody.closedAfterMs < 5000,
    `body: closed after ${Math.round(slowBody.closedAfterMs)} ms`,
  )
  t.true(slowBody.sent < body.length, 'before the body was complete')
  const headers = 'GET /settings.json HTTP/1.1\r\nHost: x\r\nX-Slow: '
  const slowHeaders = await dripRequest(api.url, headers, 'z'.repeat(400), 100)
  t.true(
    slowHeaders.closedAfterMs < 5000,
    `headers: closed after ${Math.round(slowHeaders.closedAfterMs)} ms`,
  )
  t.true((await timeHealthcheck(api)) < 1000, 'the server kept answering others')
})

test('GET /auth/logout.json signs out; JWT requests may not use the session sign-in routes', async (t) => {
  const { user, client } = await setup(t)
  await gpgAuthLogin(client, user)
  t.is((await client.fetch('/auth/is-authenticated.json')).status, 200)
  const out = await client.fetch('/auth/logout.json')
  t.is(out.status, 200)
  t.is(out.json.header.message, 'You are successfully logged out.')
  t.is((await client.fetch('/auth/is-authenticated.json')).status, 401)
  const { answer } = await jwtLogin(new TestClient(client.baseUrl), user.id, user, DOMAIN)
  const bearer = { authorization: `Bearer ${answer!.access_token}` }
  const login = await new TestClient(client.baseUrl).fetch('/auth/login.json', {
    method: 'POST',
    headers: { ...bearer, 'content-type': 'application/json' },
    body: JSON.stringify({ data: { gpg_auth: { keyid: user.fingerprint } } }),
  })
  t.is(login.status, 400)
  t.is(login.json.header.message, 'The route /auth/login is not permitted with JWT authentication.')
  const logout = await new TestClient(client.baseUrl).fetch('/auth/logout.json', {
    method: 'POST',
    headers: bearer,
  })
  t.is(logout.status, 400)
  t.is(
    logout.json.header.message,
    'The route /auth/logout is not permitted with JWT authentication.',
  )
  t.is(
    (await new TestClient(client.baseUrl).fetch('/auth/is-authenticated.json', { headers: bearer }))
      .status,
    200,
    'the probe works for bearer callers',
  )
})
