// Healthcheck: the public status probe and the administrators' checks.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { freePort } from '../helpers/extension.ts'

test('GET and HEAD /healthcheck/status.json answer OK to anyone', async (t) => {
  const api = await startTestApi(t)
  const { status, json } = await api.request('/healthcheck/status.json')
  t.is(status, 200)
  t.deepEqual([json.header.message, json.body], ['OK', 'OK'])
  t.is((await api.request('/healthcheck/status.json', { method: 'HEAD' })).status, 200)
})

test('GET /healthcheck.json is for administrators and reports each domain as the page reads it', async (t) => {
  const api = await startTestApi(t)
  t.is((await api.request('/healthcheck.json')).status, 401)
  t.is((await api.request('/healthcheck.json', { role: 'user' })).status, 403)
  const { status, json } = await api.request('/healthcheck.json', { role: 'admin' })
  t.is(status, 200)
  const body = json.body
  t.deepEqual(Object.keys(body).sort(), [
    'application',
    'configFile',
    'core',
    'database',
    'environment',
    'gpg',
    'smtpSettings',
    'ssl',
  ])
  // The administration page refuses to show a report its entity does not accept.
  t.deepEqual(await clientValidation('HealthcheckEntity', body), {})
  t.true(body.database.connect)
  t.true(body.database.tablesCount)
  t.true(body.database.info.tablesCount >= 20)
  t.true(body.database.defaultContent)
  for (const check of [
    'canEncrypt',
    'canSign',
    'canEncryptSign',
    'canDecrypt',
    'canDecryptVerify',
    'canVerify',
  ])
    t.true(body.gpg[check], check)
  t.true(body.gpg.gpgKeyPublicEmail)
  t.false(body.application.sslFullBaseUrl, 'plain http is reported')
  t.false(body.ssl.peerValid)
  t.is(body.core.info.fullBaseUrl, api.app.config.appUrl)
  t.is(body.environment.info.phpVersion, `Node.js ${process.versions.node}`)
  // Plugins add their part.
  t.like(body.smtpSettings, { isEnabled: true, isInDb: false, source: 'env' })
  t.like(body.application.registrationClosed, {
    isSelfRegistrationPluginEnabled: true,
    selfRegistrationProvider: null,
  })
  t.true(body.application.emailNotificationEnabled)
})

test('the report follows the settings: saved SMTP, open registration, a reachable address', async (t) => {
  // The public address is the one the server listens on, so it can reach itself.
  const port = await freePort()
  const api = await startTestApi(t, {
    env: { KEYWARD_PORT: String(port), KEYWARD_APP_URL: `http://127.0.0.1:${port}/` },
  })
  const json = (body: unknown) => ({
    role: 'admin' as const,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  await api.request(
    '/smtp/settings.json',
    json({
      sender_name: 'Keyward',
      sender_email: 'keyward@example.com',
      host: 'smtp.example.com',
      port: 587,
      tls: true,
      username: null,
      password: null,
    }),
  )
  await api.request(
    '/self-registration/settings.json',
    json({ provider: 'email_domains', data: { allowed_domains: ['keyward.test'] } }),
  )
  const off = Object.fromEntries(
    Object.keys(
      (await api.request('/settings/emails/notifications.json', { role: 'admin' })).json.body,
    )
      .filter((name) => name.startsWith('send_'))
      .map((name) => [name, false]),
  )
  await api.request('/settings/emails/notifications.json', json(off))
  const body = (await api.request('/healthcheck.json', { role: 'admin' })).json.body
  t.true(body.core.fullBaseUrlReachable)
  t.like(body.smtpSettings, { isInDb: true, source: 'db', errorMessage: false })
  t.is(body.application.registrationClosed.selfRegistrationProvider, 'email_domains')
  t.false(body.application.emailNotificationEnabled)
  t.deepEqual(await clientValidation('HealthcheckEntity', body), {})
})
