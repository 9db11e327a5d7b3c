// MFA for cookie and JWT sign-ins: the 302/403 dance, TOTP and Yubikey
// verification with their error keys, the passbolt_mfa cookie, remember-me, the attempt limit.
import test from 'ava'
import { generate } from 'otplib'
import { startTestApi, type TestApi } from '../helpers/api.ts'
import { gpgAuthLogin, TestClient } from '../helpers/client.ts'
import { jwtLogin } from '../helpers/jwt.ts'
import { createActiveUser, type TestUser } from '../helpers/users.ts'
import {
  startYubicoServer,
  YUBICO_CLIENT_ID,
  YUBICO_SECRET,
  yubikeyOtp,
} from '../helpers/yubico.ts'

const code = (uri: string) => generate({ secret: new URL(uri).searchParams.get('secret')! })

/** An organisation with TOTP and Yubikey on, and a user who set up TOTP, then signed in again. */
const setup = async (t: import('ava').ExecutionContext, env: Record<string, string> = {}) => {
  const yubico = await startYubicoServer(t)
  const api: TestApi = await startTestApi(t, {
    env: { KEYWARD_APP_URL: 'https://vault.keyward.test/', ...env },
  })
  const admin = await createActiveUser(api, 'admin@keyward.test', { role: 'admin' })
  const adminClient = new TestClient(api.url)
  await gpgAuthLogin(adminClient, admin)
  const saved = await adminClient.json('/mfa/settings.json', 'PUT', {
    providers: ['totp', 'yubikey'],
    yubikey: { clientId: YUBICO_CLIENT_ID, secretKey: YUBICO_SECRET, validationUrl: yubico.url },
  })
  if (saved.status !== 200) throw new Error(saved.text)
  const user: TestUser = await createActiveUser(api, 'ada@keyward.test')
  const setupClient = new TestClient(api.url)
  await gpgAuthLogin(setupClient, user)
  const uri = (await setupClient.fetch('/mfa/setup/totp.json')).json.body
    .otpProvisioningUri as string
  const confirmed = await setupClient.json('/mfa/setup/totp.json', 'POST', {
    otpProvisioningUri: uri,
    totp: await code(uri),
  })
  if (confirmed.status !== 200) throw new Error(confirmed.text)
  // A new sign-in owes the second factor.
  const client = new TestClient(api.url)
  await gpgAuthLogin(client, user)
  return { api, admin, adminClient, user, client, uri, yubico }
}

const blocked = async (client: TestClient, path: string, headers: Record<string, string> = {}) => {
  const first = await client.fetch(path, { headers })
  const location = first.headers.get('location') ?? ''
  return {
    first,
    location,
    second: location ? await client.fetch(new URL(location).pathname, { headers }) : undefined,
  }
}

test('owing a second factor: JSON calls get 302 to /mfa/verify/error.json, which answers 403 with the providers', async (t) => {
  const { client } = await setup(t)
  const { first, location, second } = await blocked(client, '/users/me.json')
  t.is(first.status, 302)
  t.is(location, 'https://vault.keyward.test/mfa/verify/error.json')
  t.is(second?.status, 403)
  t.is(second?.json.header.message, 'MFA authentication is required.')
  t.regex(second?.json.header.url, /mfa\/verify\/error\.json$/)
  t.deepEqual(second?.json.body, {
    mfa_providers: ['totp'],
    providers: { totp: 'https://vault.keyward.test/mfa/verify/totp.json' },
  })
  t.is(
    (await client.fetch('/auth/is-authenticated.json')).status,
    302,
    'the session probe reports it too',
  )
  const page = await client.fetch('/app/passwords')
  t.deepEqual(
    [page.status, page.headers.get('location')],
    [302, '/mfa/verify/totp?redirect=%2Fapp%2Fpasswords'],
  )
})

test('TOTP verification: each rule has its key, a good code sets the cookie and opens the session', async (t) => {
  const { client, uri } = await setup(t)
  const cases: [unknown, string][] = [
    [undefined, '_required'],
    ['', '_empty'],
    ['12a456', 'numeric'],
    ['123', 'minLength'],
  ]
  for (const [totp, rule] of cases) {
    const response = await client.json(
      '/mfa/verify/totp.json',
      'POST',
      totp === undefined ? {} : { totp },
    )
    t.is(response.status, 400, rule)
    t.is(
      response.json.header.message,
      'Something went wrong when validating the one-time password.',
    )
    t.deepEqual(Object.keys(response.json.body.totp), [rule])
  }
  t.is(
    (await client.fetch('/mfa/verify/totp.json')).json.header.message,
    'Please provide the one-time password.',
  )
  const ok = await client.json('/mfa/verify/totp.json', 'POST', {
    totp: await code(uri),
    remember: 0,
  })
  t.is(ok.status, 200)
  t.is(ok.json.header.message, 'The multi-factor authentication was a success.')
  const cookie = ok.setCookies.find((c) => c.startsWith('passbolt_mfa='))!
  t.regex(cookie, /httponly/i)
  t.notRegex(cookie, /expires/i, 'not remembered: a session cookie')
  t.is((await client.fetch('/users/me.json')).status, 200)
  const again = await client.json('/mfa/verify/totp.json', 'POST', { totp: await code(uri) })
  t.deepEqual(
    [again.status, again.json.header.message],
    [400, 'The multi-factor authentication is not required.'],
  )
})

test('the proof is bound to the sign-in unless remembered for 30 days', async (t) => {
  const { client, uri, user, api } = await setup(t)
  await client.json('/mfa/verify/totp.json', 'POST', { totp: await code(uri) })
  const proof = client.cookies.get('passbolt_mfa')!
  const other = new TestClient(api.url)
  await gpgAuthLogin(other, user)
  other.cookies.set('passbolt_mfa', proof)
  t.is((await other.fetch('/users/me.json')).status, 302, 'another sign-in cannot reuse it')
  const remembered = await other.json('/mfa/verify/totp.json', 'POST', {
    totp: await code(uri),
    remember: 1,
  })
  const cookie = remembered.setCookies.find((c) => c.startsWith('passbolt_mfa='))!
  const expires = Date.parse(/expires=([^;]+)/i.exec(cookie)![1])
  t.true(Math.abs(expires - Date.now() - 30 * 24 * 3600_000) < 60_000)
  const third = new TestClient(api.url)
  await gpgAuthLogin(third, user)
  third.cookies.set('passbolt_mfa', other.cookies.get('passbolt_mfa')!)
  t.is(
    (await third.fetch('/users/me.json')).status,
    200,
    'a remembered proof works for a new sign-in',
  )
})

test('too many wrong codes sign the user out', async (t) => {
  const { client } = await setup(t)
  for (let i = 0; i < 4; i++) {
    const wrong = await client.json('/mfa/verify/totp.json', 'POST', { totp: '000000' })
    t.deepEqual(Object.keys(wrong.json.body.totp), ['isValidOtp'])
  }
  const fifth = await client.json('/mfa/verify/totp.json', 'POST', { totp: '000000' })
  t.deepEqual(
    [fifth.status, fifth.json.header.message],
    [400, 'You have been logged out due to too many failed attempts.'],
  )
  t.is((await client.fetch('/auth/is-authenticated.json')).status, 401)
})

test('JWT: the login answer lists the owed providers; the bearer call is sent to verify; the cookie then admits it', async (t) => {
  const { client, user, uri } = await setup(t)
  const jwt = new TestClient(client.baseUrl)
  const { answer } = await jwtLogin(jwt, user.id, user, 'https://vault.keyward.test')
  t.deepEqual((answer as { providers?: string[] }).providers, ['totp'])
  const bearer = { authorization: `Bearer ${answer!.access_token}` }
  t.is((await jwt.fetch('/users/me.json', { headers: bearer })).status, 302)
  const verified = await jwt.fetch('/mfa/verify/totp.json', {
    method: 'POST',
    headers: { ...bearer, 'content-type': 'application/json' },
    body: JSON.stringify({ totp: await code(uri) }),
  })
  t.is(verified.status, 200)
  t.is((await jwt.fetch('/users/me.json', { headers: bearer })).status, 200)
})

test('Yubikey: registered by one OTP, then a second factor; foreign keys, replays and forged answers fail', async (t) => {
  const { client, uri, yubico, api, user } = await setup(t)
  await client.json('/mfa/verify/totp.json', 'POST', { totp: await code(uri) })
  const keyId = 'cccccbcdefgh'
  const first = yubikeyOtp(keyId, 1)
  yubico.accept(first)
  const registered = await client.json('/mfa/setup/yubikey.json', 'POST', { hotp: first })
  t.is(registered.status, 200, registered.text)
  const fresh = new TestClient(api.url)
  await gpgAuthLogin(fresh, user)
  const badShape = await fresh.json('/mfa/verify/yubikey.json', 'POST', { hotp: 'not-modhex' })
  t.deepEqual(Object.keys(badShape.json.body.hotp), ['isValidModhex'])
  const foreign = yubikeyOtp('vvvvvvvvvvvv', 2)
  yubico.accept(foreign)
  t.deepEqual(
    Object.keys(
      (await fresh.json('/mfa/verify/yubikey.json', 'POST', { hotp: foreign })).json.body.hotp,
    ),
    ['isSameYubikeyId'],
  )
  const replay = await fresh.json('/mfa/verify/yubikey.json', 'POST', { hotp: first })
  t.deepEqual(Object.keys(replay.json.body.hotp), ['isValidHotp'])
  const second = yubikeyOtp(keyId, 3)
  yubico.accept(second)
  t.is((await fresh.json('/mfa/verify/yubikey.json', 'POST', { hotp: second })).status, 200)
  t.is((await fresh.fetch('/users/me.json')).status, 200)
})

test('a validation server answer signed with the wrong key is not trusted', async (t) => {
  const { client, uri, adminClient } = await setup(t)
  await client.json('/mfa/verify/totp.json', 'POST', { totp: await code(uri) })
  const forger = await startYubicoServer(t, {
    signWith: Buffer.from('not-the-secret').toString('base64'),
  })
  const moved = await adminClient.json('/mfa/settings.json', 'PUT', {
    providers: ['totp', 'yubikey'],
    yubikey: { clientId: YUBICO_CLIENT_ID, secretKey: YUBICO_SECRET, validationUrl: forger.url },
  })
  t.is(moved.status, 200)
  const otp = yubikeyOtp('cccccbcdefgh', 9)
  forger.accept(otp)
  const refused = await client.json('/mfa/setup/yubikey.json', 'POST', { hotp: otp })
  t.is(refused.status, 400)
  t.deepEqual(Object.keys(refused.json.body.hotp), ['isValidHotp'])
})

test('organisation settings are for administrators, who get the Yubico credentials the page edits', async (t) => {
  const { client, adminClient } = await setup(t)
  const refused = await client.fetch('/mfa/settings.json')
  t.true(refused.status === 403 || refused.status === 302)
  t.false(refused.text.includes(YUBICO_SECRET))
  const shown = await adminClient.fetch('/mfa/settings.json')
  t.is(shown.status, 200)
  t.is(shown.headers.get('cache-control'), 'no-store')
  t.deepEqual(shown.json.body.providers, ['totp', 'yubikey'])
  // As passbolt: the page shows and saves back both, so an unrelated change keeps them.
  t.like(shown.json.body.yubikey, { clientId: YUBICO_CLIENT_ID, secretKey: YUBICO_SECRET })
})

test('the HTML verify form checks the code and redirects to a local path only', async (t) => {
  const { client, uri } = await setup(t)
  const form = await client.fetch('/mfa/verify/totp?redirect=/app/users')
  t.is(form.status, 200)
  t.true(form.text.includes('<html class="passbolt"'))
  const token = /name="_csrfToken" value="([0-9a-f]+)"/.exec(form.text)![1]
  t.is(token, client.cookies.get('csrfToken') ?? '')
  const post = (fields: Record<string, string>, redirect: string) =>
    client.fetch(`/mfa/verify/totp?redirect=${encodeURIComponent(redirect)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    })
  const noCsrf = await post({ totp: '000000' }, '/app/users')
  t.is(noCsrf.status, 403)
  const wrong = await post({ totp: '000000', _csrfToken: token }, '/app/users')
  t.is(wrong.status, 400)
  t.true(wrong.text.includes('role="alert"'))
  const right = await post({ totp: await code(uri), _csrfToken: token }, '//evil.example/')
  t.deepEqual([right.status, right.headers.get('location')], [302, '/'])
})

test('the user directory says who has a second factor, in lists as in views', async (t) => {
  const { adminClient, admin, user } = await setup(t)
  const listed = await adminClient.fetch('/users.json?contain[profile]=1&contain[is_mfa_enabled]=1')
  t.is(listed.status, 200, listed.text)
  const byId = new Map(
    (listed.json.body as { id: string; is_mfa_enabled: boolean }[]).map((row) => [row.id, row]),
  )
  t.is(byId.get(user.id)?.is_mfa_enabled, true)
  t.is(byId.get(admin.id)?.is_mfa_enabled, false)
  const viewed = await adminClient.fetch(`/users/${user.id}.json?contain[is_mfa_enabled]=1`)
  t.is(viewed.json.body.is_mfa_enabled, true)
  t.deepEqual(byId.get(user.id), viewed.json.body)
})
