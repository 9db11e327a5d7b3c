// Every settings answer the clients read, checked with the client's own entity class (what
// the extension or the API app builds from it), with defaults and after an administrator saved
// them; and the passphrase policy a setup or recovery link carries.
import test from 'ava'
import { registerUser } from '../../plugins/setup/index.ts'
import { startTestApi } from '../helpers/api.ts'
import { TestClient } from '../helpers/client.ts'
import { clientValidation, type EntityName } from '../helpers/client-entities.ts'

const json = (body: unknown) => ({
  method: 'POST',
  role: 'admin' as const,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

const ANSWERS: [string, EntityName][] = [
  ['/password-policies/settings.json', 'PasswordPoliciesEntity'],
  ['/user-passphrase-policies/settings.json', 'UserPassphrasePoliciesEntity'],
  ['/password-expiry/settings.json', 'PasswordExpirySettingsEntity'],
  ['/metadata/types/settings.json', 'MetadataTypesSettingsEntity'],
  ['/metadata/keys/settings.json', 'MetadataKeysSettingsEntity'],
  ['/metadata/setup/settings.json', 'MetadataSetupSettingsEntity'],
  ['/metadata/settings/getting-started.json', 'MetadataGettingStartedSettingsEntity'],
  ['/secret-revisions/settings.json', 'SecretRevisionsSettingsEntity'],
]

const checkAll = async (
  t: import('ava').ExecutionContext,
  api: Awaited<ReturnType<typeof startTestApi>>,
) => {
  for (const [path, entity] of ANSWERS) {
    const answer = await api.request(path, { role: 'user' })
    t.is(answer.status, 200, path)
    t.deepEqual(await clientValidation(entity, answer.json.body), {}, path)
  }
}

test('settings answers pass the clients entities, before and after administrators save them', async (t) => {
  const api = await startTestApi(t)
  await checkAll(t, api)
  const policies = (await api.request('/password-policies/settings.json', { role: 'user' })).json
    .body
  const { source: _, ...policy } = policies
  t.is(
    (
      await api.request(
        '/password-policies/settings.json',
        json({ ...policy, default_generator: 'passphrase' }),
      )
    ).status,
    200,
  )
  t.is(
    (
      await api.request(
        '/user-passphrase-policies/settings.json',
        json({ entropy_minimum: 112, external_dictionary_check: false }),
      )
    ).status,
    200,
  )
  t.is(
    (
      await api.request(
        '/password-expiry/settings.json',
        json({ automatic_expiry: true, automatic_update: true }),
      )
    ).status,
    200,
  )
  await checkAll(t, api)
})

test('a setup link carries the passphrase policy in force', async (t) => {
  const api = await startTestApi(t)
  const { user, url } = await registerUser(api.app.orm.em.fork(), api.app, {
    username: 'grace@keyward.test',
    firstName: 'Grace',
    lastName: 'Hopper',
    role: 'user',
  })
  const token = url.split('/').at(-1)
  const client = new TestClient(api.url)
  const before = await client.fetch(`/setup/start/${user.id}/${token}.json`)
  t.deepEqual(before.json.body.user_passphrase_policy, {
    entropy_minimum: 50,
    external_dictionary_check: true,
  })
  await api.request(
    '/user-passphrase-policies/settings.json',
    json({ entropy_minimum: 128, external_dictionary_check: false }),
  )
  const after = await client.fetch(`/setup/start/${user.id}/${token}.json`)
  t.like(after.json.body.user_passphrase_policy, {
    entropy_minimum: 128,
    external_dictionary_check: false,
  })
  t.deepEqual(
    await clientValidation('UserPassphrasePoliciesEntity', after.json.body.user_passphrase_policy),
    {},
  )
})
