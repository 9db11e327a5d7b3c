// Web recovery and registration, the setup routes API clients call, the
// Yubikey setup status, and Duo's routes refused in the envelope.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { generateUserKey, gpgAuthLogin, TestClient } from '../helpers/client.ts'
import { linkFromOutbox } from '../helpers/extension.ts'
import { createActiveUser } from '../helpers/users.ts'

test('the login page links to recovery and registration, which passbolt’s triage app serves', async (t) => {
  const api = await startTestApi(t)
  const guest = new TestClient(api.url)
  const login = await guest.fetch('/auth/login')
  t.true(login.text.includes('<a href="/users/recover">'))
  t.true(login.text.includes('<a href="/users/register">'))
  t.false(login.text.includes('<script'), 'the extension attaches to it; no script of ours')
  for (const path of ['/users/recover', '/users/register']) {
    const page = await guest.fetch(path)
    t.is(page.status, 200, path)
    t.is(page.headers.get('content-type'), 'text/html; charset=utf-8')
    const script = /<script src="(\/js\/app\/api-triage\.js\?v=[^"]+)">/.exec(page.text)
    t.truthy(script, `${path} loads the triage app`)
    const served = await guest.fetch(script![1])
    t.is(served.status, 200)
    t.regex(served.headers.get('content-type') ?? '', /javascript/)
  }
  const ada = await createActiveUser(api, 'ada@keyward.test')
  const signedIn = new TestClient(api.url)
  await gpgAuthLogin(signedIn, ada)
  const refused = await signedIn.fetch('/users/register')
  t.is(refused.status, 403)
  t.is(refused.json.header.message, 'Only guests are allowed to register.')
})

test('setup links answer under /setup/install too; a recovery is aborted with PUT as with POST', async (t) => {
  const api = await startTestApi(t)
  const client = new TestClient(api.url)
  const { registerUser } = await import('../../plugins/setup/index.ts')
  const { user, url } = await registerUser(api.app.orm.em.fork(), api.app, {
    username: 'grace@keyward.test',
    firstName: 'Grace',
    lastName: 'Hopper',
    role: 'user',
  })
  const token = url.split('/').at(-1)!
  const install = await client.fetch(`/setup/install/${user.id}/${token}.json`)
  t.is(install.status, 200, install.text)
  t.is(install.json.body.user.username, 'grace@keyward.test')
  t.is((await client.fetch(`/setup/install/${user.id}/${crypto.randomUUID()}.json`)).status, 400)
  // passbolt's older path finishes the setup as /setup/complete does.
  const key = await generateUserKey('grace@keyward.test')
  const completed = await client.json(`/users/validateAccount/${user.id}.json`, 'POST', {
    authenticationtoken: { token },
    gpgkey: { armored_key: key.armoredPublicKey },
  })
  t.is(completed.status, 200, completed.text)
  t.is(
    (await client.fetch(`/setup/install/${user.id}/${token}.json`)).status,
    400,
    'the token is spent',
  )

  const ada = await createActiveUser(api, 'ada@keyward.test')
  t.is((await client.json('/users/recover.json', 'POST', { username: ada.username })).status, 200)
  const recoverToken = (await linkFromOutbox(api.app.config.dataDir, ada.username, 'recover'))
    .split('/')
    .at(-1)!
  t.is((await client.fetch(`/setup/recover/start/${ada.id}/${recoverToken}.json`)).status, 200)
  const wrong = await client.json(`/setup/recover/abort/${ada.id}.json`, 'PUT', {
    authenticationtoken: { token: crypto.randomUUID() },
  })
  t.true(wrong.status >= 400 && wrong.status < 500, wrong.text)
  const aborted = await client.json(`/setup/recover/abort/${ada.id}.json`, 'PUT', {
    authenticationtoken: { token: recoverToken },
  })
  t.is(aborted.status, 200, aborted.text)
  t.is(
    (await client.fetch(`/setup/recover/start/${ada.id}/${recoverToken}.json`)).status,
    400,
    'the link no longer works',
  )
})

test('the Yubikey setup status, and Duo refused with a message', async (t) => {
  const api = await startTestApi(t)
  const off = await api.request('/mfa/setup/yubikey.json', { role: 'user' })
  t.is(off.status, 400)
  t.is(
    off.json.header.message,
    'This authentication provider is not enabled for your organization.',
  )
  t.is((await api.request('/mfa/setup/yubikey.json')).status, 401)
  const saved = await api.request('/mfa/settings.json', {
    role: 'admin',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      providers: ['yubikey'],
      yubikey: { clientId: '123456789012', secretKey: 'AbCdEfGhIj' },
    }),
  })
  t.is(saved.status, 200, saved.text)
  const on = await api.request('/mfa/setup/yubikey.json', { role: 'user' })
  t.is(on.status, 200, on.text)
  t.is(on.json.header.message, 'Please setup the Yubikey settings.')
  t.is(on.json.body, null)

  for (const [method, path] of [
    ['POST', '/mfa/setup/duo.json'],
    ['DELETE', '/mfa/setup/duo.json'],
    ['POST', '/mfa/setup/duo/prompt.json'],
    ['GET', '/mfa/setup/duo/callback.json'],
    ['GET', '/mfa/verify/duo.json'],
    ['POST', '/mfa/verify/duo.json'],
    ['POST', '/mfa/verify/duo/prompt.json'],
    ['GET', '/mfa/verify/duo/callback.json'],
  ]) {
    const answer = await api.request(path, { method, role: 'user' })
    t.is(answer.status, 400, `${method} ${path}`)
    t.regex(answer.json.header.message, /^Duo is not available on this server/)
  }
})

test('reports: none is offered, as in passbolt’s community edition', async (t) => {
  const api = await startTestApi(t)
  const admin = await api.request('/reports/active-users.json', { role: 'admin' })
  t.is(admin.status, 400)
  t.is(admin.json.header.message, 'The requested report `active-users` does not exist.')
  t.is((await api.request('/reports/active-users/2024.json', { role: 'admin' })).status, 400)
  t.is((await api.request('/reports/active-users.json', { role: 'user' })).status, 403)
  t.is((await api.request('/reports/active-users.json')).status, 401)
})
