// Healthcheck: the public status probe and the administrators' checks.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'

test('GET and HEAD /healthcheck/status.json answer OK to anyone', async (t) => {
  const api = await startTestApi(t)
  const { status, json } = await api.request('/healthcheck/status.json')
  t.is(status, 200)
  t.deepEqual([json.header.message, json.body], ['OK', 'OK'])
  t.is((await api.request('/healthcheck/status.json', { method: 'HEAD' })).status, 200)
})

test('GET /healthcheck.json is for administrators and reports each domain', async (t) => {
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
    'ssl',
  ])
  t.true(body.database.connect)
  t.true(body.database.tablesCount)
  t.true(body.database.defaultContent)
  t.true(body.gpg.canEncryptSign)
  t.true(body.gpg.canDecryptVerify)
  t.is(body.gpg.gpgKeyPublicFingerprint, api.app.serverKey.fingerprint)
  t.false(body.ssl.sslFullBaseUrl, 'plain http is reported')
})
