// The import, export and account-kit flags, the export policy and the user key policy, as the
// extension reads them, validated by the clients' own entities.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { TestClient } from '../helpers/client.ts'
import { clientValidation } from '../helpers/client-entities.ts'

test('signed-in users get the import, export and desktop flags and the export policy', async (t) => {
  const api = await startTestApi(t)
  const { json } = await api.request('/settings.json', { role: 'user' })
  t.like(json.body.passbolt.plugins, {
    import: { enabled: true, config: { format: ['kdbx', 'csv'] } },
    export: { enabled: true, config: { format: ['kdbx', 'csv'] } },
    desktop: { enabled: true },
    exportPolicies: { enabled: true },
    userKeyPolicies: { enabled: true },
  })
  const guest = await api.request('/settings.json')
  t.is(guest.json.body.passbolt.plugins.import, undefined, 'not for guests')
  t.is(guest.json.body.passbolt.plugins.desktop, undefined)

  const policy = await api.request('/export-policies/settings.json', { role: 'user' })
  t.is(policy.status, 200)
  t.deepEqual(policy.json.body, { allow_csv_format: false, source: 'default' })
  t.deepEqual(await clientValidation('ExportPoliciesSettingsEntity', policy.json.body), {})
  t.is((await api.request('/export-policies/settings.json')).status, 401)
})

test('the user key policy is read signed in, and during setup without a session', async (t) => {
  const api = await startTestApi(t)
  const signedIn = await api.request('/user-key-policies/settings.json', { role: 'user' })
  t.is(signedIn.status, 200)
  t.deepEqual(signedIn.json.body, {
    preferred_key_type: 'curve',
    preferred_key_size: null,
    preferred_key_curve: 'curve25519_legacy+ed25519_legacy',
    source: 'default',
  })
  t.deepEqual(await clientValidation('UserKeyPoliciesSettingsEntity', signedIn.json.body), {})
  t.is((await api.request('/user-key-policies/settings.json')).status, 401)
  const setup = await new TestClient(api.url).fetch('/setup/user-key-policies/settings.json')
  t.is(setup.status, 200)
  t.deepEqual(setup.json.body, signedIn.json.body)
  t.is(setup.headers.get('cache-control'), 'no-store')
})
