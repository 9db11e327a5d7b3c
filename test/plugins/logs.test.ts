// Nothing secret reaches the log at any level: a setup, a recovery, both sign-ins, a refresh,
// MFA set-up and verification are played over HTTP with the logger at `trace`, and every line
// is searched for the tokens, links, cookies, codes and keys that went by.
import test from 'ava'
import { generate } from 'otplib'
import { registerUser } from '../../plugins/setup/index.ts'
import { startTestApi } from '../helpers/api.ts'
import { generateUserKey, gpgAuthLogin, TestClient } from '../helpers/client.ts'
import { jwtLogin } from '../helpers/jwt.ts'
import { startSmtp } from '../helpers/smtp.ts'

const DOMAIN = 'https://vault.keyward.test'
const LINK = /\/setup\/(install|recover)\/([0-9a-f-]{36})\/([0-9a-f-]{36})/

test('no token, link, cookie, one-time password or key is ever logged', async (t) => {
  const smtp = await startSmtp(t)
  const api = await startTestApi(t, {
    env: { KEYWARD_APP_URL: `${DOMAIN}/`, KEYWARD_SMTP_URL: smtp.url },
    logLevel: 'trace',
  })
  const secrets = new Set<string>()
  const keep = (...values: (string | undefined | null)[]) => {
    for (const value of values) if (value && value.length >= 6) secrets.add(value)
  }
  const cookiesOf = (client: TestClient) => keep(...client.cookies.values())

  // An administrator set up through the mailed link.
  const { user, url } = await registerUser(api.app.orm.em.fork(), api.app, {
    username: 'ada@keyward.test',
    firstName: 'Ada',
    lastName: 'Admin',
    role: 'admin',
  })
  keep(url, url.split('/').at(-1))
  const client = new TestClient(api.url)
  const token = url.split('/').at(-1)!
  t.is((await client.fetch(`/setup/install/${user.id}/${token}`)).status, 200)
  t.is((await client.fetch(`/setup/start/${user.id}/${token}.json`)).status, 200)
  const key = await generateUserKey('ada@keyward.test')
  keep(
    key.armoredPublicKey,
    key.privateKey.armor(),
    ...key.armoredPublicKey.split('\n').slice(3, -3),
  )
  const completed = await client.json(`/setup/complete/${user.id}.json`, 'POST', {
    authenticationtoken: { token },
    gpgkey: { armored_key: key.armoredPublicKey },
  })
  t.is(completed.status, 200)

  // A recovery through the mailed link.
  await client.json('/users/recover.json', 'POST', { username: 'ada@keyward.test' })
  const mail = smtp.received.find((m) => LINK.test(m.text) && m.text.includes('recover'))!
  const [link, , , recoverToken] = LINK.exec(mail.text)!
  keep(link, recoverToken)
  t.is((await client.fetch(`${link}`)).status, 200)
  t.is((await client.fetch(`/setup/recover/start/${user.id}/${recoverToken}.json`)).status, 200)
  const recovered = await client.json(`/setup/recover/complete/${user.id}.json`, 'POST', {
    authenticationtoken: { token: recoverToken },
    gpgkey: { armored_key: key.armoredPublicKey },
  })
  t.is(recovered.status, 200)

  // GPGAuth sign-in, then MFA set up and verified in a new sign-in.
  const signIn = await gpgAuthLogin(client, { ...key })
  t.is(signIn.stage2.status, 200)
  keep(signIn.sent, signIn.token, signIn.stage1.headers.get('x-gpgauth-user-auth-token'))
  cookiesOf(client)
  t.is((await client.json('/mfa/settings.json', 'PUT', { providers: ['totp'] })).status, 200)
  const uri = (await client.fetch('/mfa/setup/totp.json')).json.body.otpProvisioningUri as string
  const secret = new URL(uri).searchParams.get('secret')!
  keep(uri, secret)
  const setupCode = await generate({ secret })
  keep(setupCode)
  t.is(
    (
      await client.json('/mfa/setup/totp.json', 'POST', {
        otpProvisioningUri: uri,
        totp: setupCode,
      })
    ).status,
    200,
  )
  const again = new TestClient(api.url)
  await gpgAuthLogin(again, { ...key })
  t.is((await again.fetch('/users/me.json')).status, 302, 'a second factor is owed')
  const wrong = setupCode === '000000' ? '111111' : '000000'
  t.is((await again.json('/mfa/verify/totp.json', 'POST', { totp: wrong })).status, 400)
  await new Promise((resolve) => setTimeout(resolve, 10))
  const verifyCode = await generate({ secret })
  keep(verifyCode)
  const verified = await again.json('/mfa/verify/totp.json', 'POST', {
    totp: verifyCode,
    remember: 1,
  })
  t.is(verified.status, 200)
  cookiesOf(again)

  // JWT sign-in, refresh and sign-out.
  const jwtClient = new TestClient(api.url)
  const { response, answer } = await jwtLogin(jwtClient, user.id, { ...key }, DOMAIN)
  t.is(response.status, 200)
  keep(
    answer!.access_token,
    answer!.refresh_token,
    answer!.verify_token,
    response.json.body.challenge,
  )
  const refreshed = await jwtClient.json('/auth/jwt/refresh.json', 'POST', {
    user_id: user.id,
    refresh_token: answer!.refresh_token,
  })
  t.is(refreshed.status, 200)
  keep(refreshed.json.body.access_token)
  cookiesOf(jwtClient)
  const bearer = { authorization: `Bearer ${refreshed.json.body.access_token}` }
  t.is((await jwtClient.fetch('/users/me.json', { headers: bearer })).status, 302)
  t.is(
    (await jwtClient.fetch('/auth/jwt/logout.json', { method: 'POST', headers: bearer })).status,
    200,
  )
  await client.fetch('/auth/logout.json', { method: 'POST' })

  const text = JSON.stringify(api.logs)
  t.true(api.logs.length > 30, 'the run was logged')
  t.true(
    api.logs.some((line) => line.level === 10 || line.level === 20),
    'at trace or debug too',
  )
  t.true(secrets.size > 15)
  const leaked = [...secrets].filter(
    (secret) => text.includes(secret) || text.includes(encodeURIComponent(secret)),
  )
  t.deepEqual(leaked, [])
})
