// GPGAuth cookie sessions, played the way the browser extension plays them :
// real OpenPGP keys, multipart posts, real HTTP and PostgreSQL.
import test from 'ava'
import * as openpgp from 'openpgp'
import { changeAndWait, startTestApi } from '../helpers/api.ts'
import {
  decodeUserAuthToken,
  generateUserKey,
  gpgAuthLogin,
  nonce,
  TestClient,
} from '../helpers/client.ts'
import { query } from '../helpers/database.ts'
import { createActiveUser } from '../helpers/users.ts'

const setup = async (t: import('ava').ExecutionContext, env: Record<string, string> = {}) => {
  const api = await startTestApi(t, { env })
  const user = await createActiveUser(api, 'ada@keyward.test')
  const client = new TestClient(api.url)
  const sql = (text: string, values: unknown[] = []) => query(api.app.database.url, text, values)
  return { api, user, client, sql }
}

test('a full login: the server proves its key, the challenge decrypts, the session opens', async (t) => {
  const { user, client } = await setup(t)
  const { sent, stage0, stage1, stage2 } = await gpgAuthLogin(client, user)
  t.is(stage0.status, 200)
  t.is(stage0.json.header.status, 'error')
  t.is(stage0.json.header.message, 'The authentication failed.')
  t.is(stage0.headers.get('x-gpgauth-verify-response'), sent)
  t.is(stage0.headers.get('x-gpgauth-progress'), 'stage0')
  t.is(stage0.headers.get('x-gpgauth-authenticated'), 'false')
  t.is(stage0.headers.get('x-gpgauth-user-auth-token'), null)
  t.is(stage0.headers.get('x-gpgauth-refer'), null)
  t.is(stage1.status, 200)
  t.is(stage1.headers.get('x-gpgauth-progress'), 'stage1')
  t.is(stage1.headers.get('x-gpgauth-verify-response'), null)
  t.is(stage2.status, 200)
  t.is(stage2.json.header.status, 'success')
  t.is(stage2.json.header.message, 'You are successfully logged in.')
  t.is(stage2.headers.get('x-gpgauth-authenticated'), 'true')
  t.is(stage2.headers.get('x-gpgauth-progress'), 'complete')
  t.is(stage2.headers.get('x-gpgauth-refer'), '/')
  t.is(stage2.headers.get('x-gpgauth-user-auth-token'), null)
  t.is(stage2.json.body.id, user.id)
  t.is(stage2.json.body.gpgkey.fingerprint, user.fingerprint)
  const cookie = stage2.setCookies.find((c) => c.startsWith('passbolt_session='))!
  t.regex(cookie, /httponly/i)
  t.regex(cookie, /samesite=lax/i)
  t.notRegex(cookie, /secure/i, 'no Secure flag over plain http')
  const me = await client.fetch('/users/me.json')
  t.is(me.status, 200)
  t.is(me.json.body.username, 'ada@keyward.test')
  t.is(me.json.body.last_logged_in?.length, 25)
  t.is((await client.fetch('/auth/is-authenticated.json')).status, 200)
})

test('the user auth token header is PHP urlencoded and quotemeta-escaped', async (t) => {
  const { user, client } = await setup(t)
  const { stage1 } = await gpgAuthLogin(client, user)
  const header = stage1.headers.get('x-gpgauth-user-auth-token')!
  t.regex(header, /^-----BEGIN\\\+PGP\\\+MESSAGE-----/)
  t.true(header.includes('\\+'), 'pluses from spaces and base64 are escaped')
  t.false(
    /[ /=]/.test(header.replace(/\\[.+*?[^\]$()\\]/g, '')),
    'nothing but urlencoded text remains',
  )
})

test('every non-JWT answer carries the GPGAuth headers; unauthenticated ones say so', async (t) => {
  const { client } = await setup(t)
  for (const path of ['/settings.json', '/nothing.json', '/roles.json']) {
    const response = await client.fetch(path)
    t.is(response.headers.get('x-gpgauth-version'), '1.3.0', path)
    t.is(response.headers.get('x-gpgauth-pubkey-url'), '/auth/verify.json', path)
    t.is(response.headers.get('x-gpgauth-authenticated'), 'false', path)
    t.is(response.headers.get('x-gpgauth-progress'), 'stage0', path)
  }
  const bearer = await client.fetch('/settings.json', { headers: { authorization: 'Bearer x' } })
  t.is(bearer.headers.get('x-gpgauth-version'), null, 'JWT requests get none')
})

test('stage 0 refuses a token not encrypted to the server key, and a badly formed nonce gets no echo', async (t) => {
  const { user, client } = await setup(t)
  const other = await generateUserKey('other@keyward.test')
  const wrong = (await openpgp.encrypt({
    message: await openpgp.createMessage({ text: nonce() }),
    encryptionKeys: other.publicKey,
  })) as string
  const refused = await client.postForm('/auth/verify.json', {
    'data[gpg_auth][keyid]': user.fingerprint,
    'data[gpg_auth][server_verify_token]': wrong,
  })
  t.is(refused.status, 400)
  t.is(refused.json.header.message, 'The server verify token is missing or invalid.')
  t.is(refused.headers.get('x-gpgauth-error'), 'true')
  const serverKey = await openpgp.readKey({
    armoredKey: (await client.fetch('/auth/verify.json')).json.body.keydata,
  })
  const injected = (await openpgp.encrypt({
    message: await openpgp.createMessage({ text: 'x\r\nSet-Cookie: a=b' }),
    encryptionKeys: serverKey,
  })) as string
  const bad = await client.postForm('/auth/verify.json', {
    'data[gpg_auth][keyid]': user.fingerprint,
    'data[gpg_auth][server_verify_token]': injected,
  })
  t.is(bad.status, 200)
  t.is(bad.headers.get('x-gpgauth-error'), 'true')
  t.is(bad.headers.get('x-gpgauth-verify-response'), null)
})

test('unknown, missing or malformed fingerprints are 400 with the "no user associated" message', async (t) => {
  const { client } = await setup(t)
  const cases: [Record<string, string>, string][] = [
    [
      { 'data[gpg_auth][keyid]': 'A'.repeat(40) },
      'There is no user associated with this key. User not found.',
    ],
    [{}, 'There is no user associated with this key. No key id set.'],
    [
      { 'data[gpg_auth][keyid]': 'not-hex' },
      'There is no user associated with this key. Invalid fingerprint.',
    ],
  ]
  for (const [fields, message] of cases) {
    const response = await client.postForm('/auth/login.json', fields)
    t.is(response.status, 400)
    t.is(response.json.header.message, message)
    t.is(response.headers.get('x-gpgauth-debug'), message)
    t.is(response.headers.get('x-gpgauth-error'), 'true')
  }
})

test('stage 2 tokens are single use, must match, and expire after 5 minutes', async (t) => {
  const { user, client, api, sql } = await setup(t)
  const { token } = await gpgAuthLogin(client, user)
  const replay = await new TestClient(api.url).postForm('/auth/login.json', {
    'data[gpg_auth][keyid]': user.fingerprint,
    'data[gpg_auth][user_token_result]': token,
  })
  t.is(replay.status, 400)
  t.is(replay.json.header.message, 'The authentication failed.')
  t.is(replay.headers.get('x-gpgauth-progress'), 'stage2')
  const guess = await new TestClient(api.url).postForm('/auth/login.json', {
    'data[gpg_auth][keyid]': user.fingerprint,
    'data[gpg_auth][user_token_result]': nonce(),
  })
  t.is(guess.status, 400)
  const late = new TestClient(api.url)
  const stage1 = await late.postForm('/auth/login.json', {
    'data[gpg_auth][keyid]': user.fingerprint,
  })
  const { data } = await openpgp.decrypt({
    message: await openpgp.readMessage({
      armoredMessage: decodeUserAuthToken(stage1.headers.get('x-gpgauth-user-auth-token')!),
    }),
    decryptionKeys: user.privateKey,
  })
  await sql(
    "update authentication_tokens set created = now() - interval '6 minutes' where type = 'login' and active",
  )
  const expired = await late.postForm('/auth/login.json', {
    'data[gpg_auth][keyid]': user.fingerprint,
    'data[gpg_auth][user_token_result]': String(data),
  })
  t.deepEqual([expired.status, expired.json.header.message], [400, 'The authentication failed.'])
  const [{ count }] = await sql(
    "select count(*)::int as count from authentication_tokens where type = 'login' and active",
  )
  t.is(count, 0, 'the expired challenge was deactivated when tried')
  t.is((await gpgAuthLogin(late, user)).stage2.status, 200, 'a fresh challenge still works')
})

test('logout needs the CSRF token, ends the session, and a new login gets a new session id', async (t) => {
  const { user, client } = await setup(t)
  await gpgAuthLogin(client, user)
  const first = client.cookies.get('passbolt_session')!
  const noToken = await client.fetch('/auth/logout.json', { method: 'POST', csrf: false })
  t.is(noToken.status, 403)
  const out = await client.fetch('/auth/logout.json', { method: 'POST' })
  t.is(out.status, 200)
  t.is(out.json.header.message, 'You are successfully logged out.')
  t.is((await client.fetch('/auth/is-authenticated.json')).status, 401)
  await gpgAuthLogin(client, user)
  const second = client.cookies.get('passbolt_session')!
  t.not(second, first)
  const stale = new TestClient(client.baseUrl)
  stale.cookies.set('passbolt_session', first)
  t.is((await stale.fetch('/auth/is-authenticated.json')).status, 401)
})

test('a signed-in session cannot log in again: 409', async (t) => {
  const { user, client } = await setup(t)
  await gpgAuthLogin(client, user)
  const again = await client.postForm('/auth/login.json', {
    'data[gpg_auth][keyid]': user.fingerprint,
  })
  t.deepEqual([again.status, again.json.header.message], [409, 'You are already logged in.'])
})

test('disabled users cannot log in, and a disabled user’s open session ends at the next request', async (t) => {
  const { api, user, client, sql } = await setup(t)
  await gpgAuthLogin(client, user)
  t.is((await client.fetch('/users/me.json')).status, 200)
  await changeAndWait(api, () => sql('update users set disabled = now() where id = $1', [user.id]))
  t.is((await client.fetch('/users/me.json')).status, 401)
  const refused = await new TestClient(client.baseUrl).postForm('/auth/login.json', {
    'data[gpg_auth][keyid]': user.fingerprint,
  })
  t.deepEqual(
    [refused.status, refused.json.header.message],
    [400, 'There is no user associated with this key. User not found.'],
  )
})

test('sessions end after the inactivity timeout; the probe does not extend them, /users/me.json does', async (t) => {
  const { user, client, sql } = await setup(t, { KEYWARD_SESSION_TIMEOUT: '2' })
  await gpgAuthLogin(client, user)
  await sql("update sessions set last_activity = now() - interval '90 seconds'")
  t.is((await client.fetch('/auth/is-authenticated.json')).status, 200)
  const [probe] = await sql(
    'select extract(epoch from now() - last_activity)::int as idle from sessions',
  )
  t.true(probe.idle >= 89, 'is-authenticated left the activity time alone')
  t.is((await client.fetch('/users/me.json')).status, 200)
  const [kept] = await sql(
    'select extract(epoch from now() - last_activity)::int as idle from sessions',
  )
  t.true(kept.idle < 5, 'users/me kept the session alive')
  await sql("update sessions set last_activity = now() - interval '3 minutes'")
  t.is((await client.fetch('/auth/is-authenticated.json')).status, 401)
})

test('the CSRF cookie is issued on a GET, readable by script, and served by /users/csrf-token.json', async (t) => {
  const { client } = await setup(t)
  const first = await client.fetch('/settings.json')
  const cookie = first.setCookies.find((c) => c.startsWith('csrfToken='))!
  t.regex(cookie, /^csrfToken=[0-9a-f]{128};/)
  t.notRegex(cookie, /httponly/i)
  const served = await client.fetch('/users/csrf-token.json')
  t.is(served.json.body, client.cookies.get('csrfToken'))
})
