// The users' public keys as the clients sync them: the list with its filters (what changed since
// the last sync, deleted keys, some users'), one key, and the facts read from each key when
// setup stored it.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { countQueries } from '../helpers/queries.ts'
import { createActiveUser } from '../helpers/users.ts'
import { sqlOf, team } from '../helpers/vault.ts'

test('keys: list, filters, one key, and the facts stored at setup', async (t) => {
  const api = await startTestApi(t)
  const [ada, bob] = await team(api, ['ada', 'bob'])
  const rsa = await createActiveUser(api, 'rsa@keyward.test', { keyType: 'rsa' })
  const sql = sqlOf(api)

  const listed = await ada.client.fetch('/gpgkeys.json')
  t.is(listed.status, 200)
  t.is(listed.json.body.length, 3)
  t.is(listed.json.header.pagination.count, 3)
  for (const key of listed.json.body) t.deepEqual(await clientValidation('GpgkeyEntity', key), {})
  const rsaKey = listed.json.body.find((key: { user_id: string }) => key.user_id === rsa.id)
  t.is(rsaKey.fingerprint, rsa.fingerprint)
  t.is(rsaKey.key_id, rsa.fingerprint.slice(-16))
  t.is(rsaKey.type, 'RSA')
  t.true(rsaKey.bits >= 3072)
  t.regex(rsaKey.uid, /<rsa@keyward\.test>/)
  t.regex(rsaKey.key_created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/)
  t.is(rsaKey.expires, null)
  t.is(rsaKey.deleted, false)
  t.true(rsaKey.armored_key.startsWith('-----BEGIN PGP PUBLIC KEY BLOCK-----'))
  const adaKey = listed.json.body.find((key: { user_id: string }) => key.user_id === ada.id)
  t.is(adaKey.type, 'ECC')
  t.is(adaKey.fingerprint, ada.fingerprint)

  // The keyring sync asks what changed since the server time it last saw.
  await sql("update gpgkeys set modified = now() - interval '1 hour' where user_id <> $1", [bob.id])
  const since = Math.floor(Date.now() / 1000) - 60
  for (const query of [`filter[modified-after]=${since}`, `modified_after=${since}`]) {
    const changed = await ada.client.fetch(`/gpgkeys.json?${query}`)
    t.deepEqual(
      changed.json.body.map((key: { user_id: string }) => key.user_id),
      [bob.id],
      query,
    )
  }
  const some = await ada.client.fetch(
    `/gpgkeys.json?filter[has-users][]=${ada.id}&filter[has-users][]=${rsa.id}`,
  )
  t.deepEqual(
    some.json.body.map((key: { user_id: string }) => key.user_id).sort(),
    [ada.id, rsa.id].sort(),
  )
  await sql('update gpgkeys set deleted = true where user_id = $1', [rsa.id])
  t.is((await ada.client.fetch('/gpgkeys.json')).json.body.length, 2)
  const deleted = await ada.client.fetch('/gpgkeys.json?filter[is-deleted]=1')
  t.deepEqual(
    deleted.json.body.map((key: { user_id: string }) => key.user_id),
    [rsa.id],
  )
  const paged = await ada.client.fetch('/gpgkeys.json?limit=1&page=2&sort=Gpgkeys.key_id')
  t.is(paged.json.body.length, 1)
  t.is(paged.json.header.pagination.count, 2)
  for (const bad of [
    'filter[modified-after]=yesterday',
    'filter[is-deleted]=maybe',
    'filter[has-users][]=nope',
    'sort=Gpgkeys.armored_key',
  ])
    t.is((await ada.client.fetch(`/gpgkeys.json?${bad}`)).status, 400, bad)

  const one = await bob.client.fetch(`/gpgkeys/${rsaKey.id}.json`)
  t.is(one.status, 200)
  t.is(one.json.body.deleted, true, 'a deleted key is still shown by id, as passbolt does')
  t.deepEqual(await clientValidation('GpgkeyEntity', one.json.body), {})
  const badId = await bob.client.fetch('/gpgkeys/nope.json')
  t.is(badId.status, 400)
  t.is(badId.json.header.message, 'The OpenPGP key identifier should be a valid UUID.')
  const unknown = await bob.client.fetch('/gpgkeys/8d1f6a0e-0000-4000-8000-000000000000.json')
  t.is(unknown.status, 404)
  t.is(unknown.json.header.message, 'The OpenPGP key does not exist.')
  const guest = await api.request('/gpgkeys.json')
  t.is(guest.status, 401)
})

test('the key list runs the same statements for 2 keys and for 42', async (t) => {
  const api = await startTestApi(t)
  const [ada] = await team(api, ['ada', 'bob'])
  const sql = sqlOf(api)
  const count = async () => {
    // A first request reads the caller's account state again after changes.
    await ada.client.fetch('/gpgkeys.json')
    const { result, statements } = await countQueries(api, () => ada.client.fetch('/gpgkeys.json'))
    t.is(result.status, 200)
    return { statements: statements.length, keys: result.json.body.length }
  }
  const few = await count()
  await sql(
    `insert into users (id, role_id, username, active)
     select gen_random_uuid(), role_id, 'copy' || i || '@keyward.test', true
     from users, generate_series(1, 40) i where username = 'ada@keyward.test'`,
  )
  await sql(
    `insert into gpgkeys (id, user_id, armored_key, bits, uid, key_id, fingerprint, type)
     select gen_random_uuid(), u.id, k.armored_key, k.bits, k.uid, k.key_id,
       upper(md5(u.id::text)) || '12345678', k.type
     from users u, gpgkeys k where u.username like 'copy%' and k.user_id = $1`,
    [ada.id],
  )
  const many = await count()
  t.is(few.keys, 2)
  t.is(many.keys, 42)
  t.is(many.statements, few.statements)
})
