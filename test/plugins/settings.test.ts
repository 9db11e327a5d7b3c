// GET /settings.json: the guest shape for anonymous callers, the full shape for signed-in users.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'

test('guests get the common part and the public plugin flags only', async (t) => {
  const api = await startTestApi(t, {
    env: {
      KEYWARD_APP_URL: 'https://vault.keyward.test/',
      KEYWARD_TERMS_URL: 'https://keyward.test/terms',
    },
  })
  const { status, json } = await api.request('/settings.json?api-version=v2')
  t.is(status, 200)
  t.is(json.header.action, 'bef9f3ca-86ef-5c6a-9b38-320e03ceb5df')
  const { app, passbolt } = json.body
  t.deepEqual(app, { url: 'https://vault.keyward.test/', locale: 'en-UK' })
  t.deepEqual(passbolt.legal, {
    privacy_policy: { url: '' },
    terms: { url: 'https://keyward.test/terms' },
  })
  t.is(passbolt.edition, 'pro', 'no upgrade teasers: every feature is gated by its own flag')
  t.deepEqual(Object.keys(passbolt.plugins).sort(), [
    'exportPolicies',
    'jwtAuthentication',
    'locale',
    'rememberMe',
    'selfRegistration',
    'userKeyPolicies',
  ])
  t.deepEqual(passbolt.plugins.rememberMe.options, {
    '300': '5 minutes',
    '900': '15 minutes',
    '1800': '30 minutes',
    '3600': '1 hour',
    '-1': 'until I log out',
  })
  t.true(passbolt.plugins.locale.options.some((o: { locale: string }) => o.locale === 'fr-FR'))
  t.is(passbolt.plugins.locale.enabled, undefined, 'no version details for guests')
})

test('signed-in users also get version, timezone, session timeout and the plugin versions', async (t) => {
  const api = await startTestApi(t, { env: { KEYWARD_SESSION_TIMEOUT: '30' } })
  const { json } = await api.request('/settings.json', { role: 'user' })
  const { app, passbolt } = json.body
  t.deepEqual(app.version, { number: '5.0.0', name: 'Keyward' })
  t.is(app.server_timezone, 'UTC')
  t.is(app.session_timeout, 30)
  t.is(app.debug, 0)
  t.deepEqual(passbolt.plugins.locale.enabled, true)
  t.is(passbolt.plugins.locale.options.length, 16, 'user flags merge over the public ones')
  // Features the workspace offers only when announced.
  t.like(passbolt.plugins, {
    previewPassword: { enabled: true },
    folders: { enabled: true },
    resourceTypes: { enabled: true },
  })
  t.deepEqual(passbolt.plugins.secretRevisions, { enabled: true, version: '1.0.0' })
})

test('contain[header]=0 answers the bare settings object', async (t) => {
  const api = await startTestApi(t)
  const { json } = await api.request('/settings.json?contain[header]=0')
  t.is(json.header, undefined)
  t.is(json.passbolt.edition, 'pro')
})
