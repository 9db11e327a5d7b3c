// MFA organisation settings as the administration page sends them: every provider block, empty
// when the provider is off; the Yubico credentials under the page's own rules; Duo refused.
import test from 'ava'
import { readOrganizationMfa } from '../../plugins/mfa/service.ts'
import { startTestApi } from '../helpers/api.ts'

const save = (body: unknown, role: 'admin' | 'user' = 'admin') => ({
  role,
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

test('the page body is accepted: off providers come as empty blocks', async (t) => {
  const api = await startTestApi(t)
  const empty = await api.request('/mfa/settings.json', { role: 'admin' })
  t.deepEqual(empty.json.body, { providers: [] })
  const saved = await api.request(
    '/mfa/settings.json',
    save({ providers: ['totp'], yubikey: {}, duo: {} }),
  )
  t.is(saved.status, 200, saved.text)
  t.is(
    saved.json.header.message,
    'The multi factor authentication settings for the organization were updated.',
  )
  t.deepEqual(saved.json.body, { providers: ['totp'] })
  // A secret the page accepts (letters and digits, 10 to 128) is accepted here too.
  const yubikey = await api.request(
    '/mfa/settings.json',
    save({
      providers: ['totp', 'yubikey'],
      yubikey: { clientId: '123456789012', secretKey: 'AbCdEfGhIj' },
      duo: {},
    }),
  )
  t.is(yubikey.status, 200, yubikey.text)
  const read = await api.request('/mfa/settings.json', { role: 'admin' })
  t.like(read.json.body, {
    providers: ['totp', 'yubikey'],
    yubikey: {
      clientId: '123456789012',
      secretKey: 'AbCdEfGhIj',
      validationUrl: 'https://api.yubico.com/wsapi/2.0/verify',
    },
  })
  // Turning Yubikey off drops its credentials, as the page sends `{}` for it.
  await api.request('/mfa/settings.json', save({ providers: ['totp'], yubikey: {}, duo: {} }))
  t.deepEqual((await readOrganizationMfa(api.app.orm.em.fork())).yubikey, undefined)
})

test('Duo, malformed Yubico credentials and users are refused, and nothing changes', async (t) => {
  const api = await startTestApi(t)
  await api.request('/mfa/settings.json', save({ providers: ['totp'], yubikey: {}, duo: {} }))
  const duo = await api.request(
    '/mfa/settings.json',
    save({
      providers: ['totp', 'duo'],
      yubikey: {},
      duo: { hostName: 'api-12345678.duosecurity.com', integrationKey: 'x', secretKey: 'y' },
    }),
  )
  t.is(duo.status, 400)
  t.regex(JSON.stringify(duo.json.body.providers), /Duo is not available on this server/)
  for (const yubikey of [
    {},
    { clientId: 'abc', secretKey: 'AbCdEfGhIj' },
    { clientId: '123', secretKey: 'short' },
    { clientId: '123', secretKey: 'has spaces in it' },
    { clientId: '123', secretKey: 'AbCdEfGhIj', validationUrl: 'file:///etc/passwd' },
  ]) {
    const refused = await api.request(
      '/mfa/settings.json',
      save({ providers: ['yubikey'], yubikey, duo: {} }),
    )
    t.is(refused.status, 400, JSON.stringify(yubikey))
    t.truthy(refused.json.body.yubikey, JSON.stringify(yubikey))
  }
  t.is((await api.request('/mfa/settings.json', save({ providers: ['sms'] }))).status, 400)
  t.is((await api.request('/mfa/settings.json', save({ providers: [] }, 'user'))).status, 403)
  t.deepEqual((await readOrganizationMfa(api.app.orm.em.fork())).providers, ['totp'])
})

test('the providers a user may set up come in passbolt’s two fields too, which the extension reads', async (t) => {
  const api = await startTestApi(t)
  const off = { totp: false, duo: false, yubikey: false }
  const before = await api.request('/mfa/setup/select.json', { role: 'user' })
  t.is(before.status, 200, before.text)
  t.like(before.json.body, { MfaOrganizationSettings: off, MfaAccountSettings: off })
  await api.request('/mfa/settings.json', save({ providers: ['totp'], yubikey: {}, duo: {} }))
  const after = await api.request('/mfa/setup/select.json', { role: 'user' })
  t.deepEqual(after.json.body, {
    totp: { enabled: true, configured: false },
    yubikey: { enabled: false, configured: false },
    MfaOrganizationSettings: { ...off, totp: true },
    MfaAccountSettings: off,
  })
})

test('a new TOTP secret comes in the one URI form the official extension accepts', async (t) => {
  const api = await startTestApi(t)
  await api.request('/mfa/settings.json', save({ providers: ['totp'], yubikey: {}, duo: {} }))
  const answer = await api.request('/mfa/setup/totp.json', { role: 'user' })
  t.is(answer.status, 200, answer.text)
  const uri: string = answer.json.body.otpProvisioningUri
  // The extension's own pattern (MfaTotpSetupInfoEntity, 5.11): issuer, then secret, nothing else.
  t.regex(uri, /^otpauth:\/\/totp\/([^?]+)\?issuer=([^&]+)&secret=([A-Za-z0-9]+)$/)
  t.regex(decodeURIComponent(new URL(uri).pathname), /^\/Keyward:.+@/)
  t.not(
    (await api.request('/mfa/setup/totp.json', { role: 'user' })).json.body.otpProvisioningUri,
    uri,
  )
})
