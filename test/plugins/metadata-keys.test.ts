// Metadata keys over real HTTP, PostgreSQL and OpenPGP: administrators create, expire and
// delete them; each user only ever receives copies encrypted to their own key; users keep their
// own session keys. Every refusal leaves the tables as they were.
import test, { type ExecutionContext } from 'ava'
import * as openpgp from 'openpgp'
import { startTestApi } from '../helpers/api.ts'
import { generateUserKey } from '../helpers/client.ts'
import {
  createMetadataKey,
  generateMetadataKey,
  privateKeyCopy,
  revokedPublicKey,
  serverRecipient,
} from '../helpers/metadata.ts'
import { encryptFor, sqlOf, team } from '../helpers/vault.ts'

const setup = async (t: ExecutionContext) => {
  const api = await startTestApi(t)
  const [admin, ada, bob] = await team(api, ['admin', 'ada', 'bob'], 'admin')
  return { api, admin, ada, bob, sql: sqlOf(api) }
}

const counts = async (sql: ReturnType<typeof sqlOf>) =>
  (
    await sql(
      `select (select count(*)::int from metadata_keys) as keys,
              (select count(*)::int from metadata_private_keys) as copies`,
    )
  )[0]

test('an administrator creates a metadata key; everyone lists it, each with their own copy only', async (t) => {
  const { api, admin, ada, sql } = await setup(t)
  const key = await generateMetadataKey()
  const body = {
    fingerprint: key.fingerprint,
    armored_key: key.armoredPublicKey,
    metadata_private_keys: [
      { user_id: admin.id, data: await privateKeyCopy(key, [admin], admin) },
      { user_id: null, data: await privateKeyCopy(key, [serverRecipient(api)], admin) },
    ],
  }
  const refused = await ada.client.json('/metadata/keys.json', 'POST', body)
  t.is(refused.status, 403)
  t.deepEqual(await counts(sql), { keys: 0, copies: 0 })
  const created = await admin.client.json('/metadata/keys.json', 'POST', body)
  t.is(created.status, 200, created.text)
  t.like(created.json.body, {
    fingerprint: key.fingerprint,
    armored_key: key.armoredPublicKey,
    created_by: admin.id,
    expired: null,
    deleted: null,
  })
  t.deepEqual(
    created.json.body.metadata_private_keys.map((copy: { user_id: string }) => copy.user_id),
    [admin.id],
  )
  const path =
    '/metadata/keys.json?contain[metadata_private_keys]=1&contain[creator]=1&contain[creator.profile]=1&filter[deleted]=0'
  const forAdmin = (await admin.client.fetch(path)).json.body
  t.is(forAdmin.length, 1)
  t.is(forAdmin[0].metadata_private_keys.length, 1, 'never the server’s copy')
  t.is(forAdmin[0].metadata_private_keys[0].user_id, admin.id)
  t.is(forAdmin[0].creator.profile.first_name, 'Test')
  const clear = JSON.parse(
    String(
      (
        await openpgp.decrypt({
          message: await openpgp.readMessage({
            armoredMessage: forAdmin[0].metadata_private_keys[0].data,
          }),
          decryptionKeys: admin.privateKey,
        })
      ).data,
    ),
  )
  t.is(clear.fingerprint, key.fingerprint)
  const forAda = (await ada.client.fetch(path)).json.body
  t.is(forAda[0].id, forAdmin[0].id)
  t.deepEqual(forAda[0].metadata_private_keys, [], 'ada holds no copy')
  t.deepEqual(
    (await ada.client.fetch('/metadata/keys.json?filter[deleted]=1')).json.body,
    [],
    'filters apply',
  )
  t.is((await ada.client.fetch('/metadata/keys.json?filter[expired]=maybe')).status, 400)
  const [row] = await sql('select created_by from metadata_private_keys where user_id is null')
  t.is(row.created_by, admin.id)
})

test('a key is refused when it is not a sound public key for its fingerprint, or its copies are for someone else', async (t) => {
  const { api, admin, ada, bob, sql } = await setup(t)
  const key = await generateMetadataKey()
  const good = {
    fingerprint: key.fingerprint,
    armored_key: key.armoredPublicKey,
    metadata_private_keys: [{ user_id: admin.id, data: await privateKeyCopy(key, [admin]) }],
  }
  const other = await generateMetadataKey()
  const expiring = await openpgp.generateKey({
    type: 'ecc',
    curve: 'curve25519Legacy',
    userIDs: [{ name: 'Expiring', email: 'e@keyward.test' }],
    keyExpirationTime: 3600,
    format: 'object',
  })
  const rsa2048 = await generateUserKey('small@keyward.test', 'rsa', 2048)
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['no fingerprint', { ...good, fingerprint: undefined }, 'fingerprint', '_required'],
    ['not hex', { ...good, fingerprint: 'Z'.repeat(40) }, 'fingerprint', 'custom'],
    [
      'another key’s fingerprint',
      { ...good, fingerprint: other.fingerprint },
      'fingerprint',
      'isMatchingKeyFingerprint',
    ],
    ['not a key', { ...good, armored_key: 'hello' }, 'armored_key', 'isPublicKeyValidStrict'],
    [
      'a private key',
      { ...good, armored_key: key.armoredPrivateKey },
      'armored_key',
      'isPublicKeyValidStrict',
    ],
    [
      'a revoked key',
      { ...good, armored_key: await revokedPublicKey(key) },
      'armored_key',
      'isPublicKeyValidStrict',
    ],
    [
      'a key with an expiry date',
      {
        ...good,
        fingerprint: expiring.publicKey.getFingerprint().toUpperCase(),
        armored_key: expiring.publicKey.armor(),
      },
      'armored_key',
      'isPublicKeyValidStrict',
    ],
    [
      'RSA 2048',
      {
        ...good,
        fingerprint: rsa2048.fingerprint.toUpperCase(),
        armored_key: rsa2048.armoredPublicKey,
      },
      'armored_key',
      'isPublicKeyValidStrict',
    ],
    [
      'an oversized key',
      { ...good, armored_key: `${key.armoredPublicKey}${' '.repeat(60_000)}` },
      'armored_key',
      'isPublicKeyValidStrict',
    ],
    ['no copies', { ...good, metadata_private_keys: [] }, 'metadata_private_keys', 'hasAtLeast'],
    [
      'an expiry date',
      { ...good, expired: '2026-01-01T00:00:00+00:00' },
      'expired',
      'isNullOnCreate',
    ],
  ]
  for (const [label, body, field, rule] of cases) {
    const response = await admin.client.json('/metadata/keys.json', 'POST', body)
    t.is(response.status, 400, `${label}: ${response.text}`)
    t.truthy(response.json.body?.[field]?.[rule], `${label}: ${JSON.stringify(response.json.body)}`)
  }
  const copyCases: [string, unknown, string, string][] = [
    [
      'a copy for bob given to ada',
      { user_id: ada.id, data: await privateKeyCopy(key, [bob]) },
      'data',
      'isValidEncryptedMetadataPrivateKey',
    ],
    [
      'a copy for ada and bob at once',
      { user_id: ada.id, data: await privateKeyCopy(key, [ada, bob]) },
      'data',
      'isValidEncryptedMetadataPrivateKey',
    ],
    [
      'a server copy readable by ada',
      { user_id: null, data: await privateKeyCopy(key, [ada]) },
      'data',
      'isValidEncryptedMetadataPrivateKey',
    ],
    [
      'a symmetric message',
      {
        user_id: ada.id,
        data: await openpgp.encrypt({
          message: await openpgp.createMessage({ text: 'x' }),
          passwords: ['secret'],
        }),
      },
      'data',
      'isValidEncryptedMetadataPrivateKey',
    ],
    [
      'not a message',
      { user_id: ada.id, data: 'nope' },
      'data',
      'isValidEncryptedMetadataPrivateKey',
    ],
    [
      'an unknown user',
      { user_id: '00000000-0000-4000-8000-00000000dead', data: await privateKeyCopy(key, [ada]) },
      'user_id',
      'isUserActiveIfPresent',
    ],
  ]
  for (const [label, copy, field, rule] of copyCases) {
    const response = await admin.client.json('/metadata/keys.json', 'POST', {
      ...good,
      metadata_private_keys: [good.metadata_private_keys[0], copy],
    })
    t.is(response.status, 400, label)
    t.truthy(
      response.json.body?.metadata_private_keys?.[1]?.[field]?.[rule],
      `${label}: ${JSON.stringify(response.json.body)}`,
    )
  }
  t.deepEqual(await counts(sql), { keys: 0, copies: 0 }, 'nothing written by a refusal')
  // The server's key and a user's key are theirs alone.
  const server = api.app.serverKey
  const serverReuse = await admin.client.json('/metadata/keys.json', 'POST', {
    ...good,
    fingerprint: server.fingerprint,
    armored_key: server.armoredPublicKey,
  })
  t.truthy(serverReuse.json.body.fingerprint?.isNotServerKeyFingerprintRule, serverReuse.text)
  const userReuse = await admin.client.json('/metadata/keys.json', 'POST', {
    ...good,
    fingerprint: ada.fingerprint.toUpperCase(),
    armored_key: ada.armoredPublicKey,
  })
  t.truthy(userReuse.json.body.fingerprint?.isNotUserKeyFingerprintRule, userReuse.text)
  // Unique fingerprints, and at most two active keys.
  await createMetadataKey(api, admin, key)
  const again = await admin.client.json('/metadata/keys.json', 'POST', good)
  t.truthy(again.json.body.fingerprint?._isUnique)
  await createMetadataKey(api, admin, other)
  const third = await generateMetadataKey()
  const tooMany = await admin.client.json('/metadata/keys.json', 'POST', {
    fingerprint: third.fingerprint,
    armored_key: third.armoredPublicKey,
    metadata_private_keys: [{ user_id: admin.id, data: await privateKeyCopy(third, [admin]) }],
  })
  t.truthy(tooMany.json.body.fingerprint?.maxNoOfActiveKeys, tooMany.text)
  t.deepEqual(await counts(sql), { keys: 2, copies: 4 })
})

test('expiring takes the revoked public key; deleting takes an expired key no item uses', async (t) => {
  const { api, admin, ada, sql } = await setup(t)
  const key = await generateMetadataKey()
  const id = await createMetadataKey(api, admin, key)
  const revoked = await revokedPublicKey(key)
  const expire = (body: Record<string, unknown>, as = admin) =>
    as.client.json(`/metadata/keys/${id}.json`, 'PUT', body)
  const now = new Date().toISOString()
  t.is(
    (await expire({ fingerprint: key.fingerprint, armored_key: revoked, expired: now }, ada))
      .status,
    403,
  )
  const notRevoked = await expire({
    fingerprint: key.fingerprint,
    armored_key: key.armoredPublicKey,
    expired: now,
  })
  t.truthy(notRevoked.json.body.armored_key?.isPublicKeyRevoked, notRevoked.text)
  const future = await expire({
    fingerprint: key.fingerprint,
    armored_key: revoked,
    expired: '2099-01-01T00:00:00+00:00',
  })
  t.truthy(future.json.body.expired?.isDateInPast)
  const other = await generateMetadataKey()
  const wrongKey = await expire({
    fingerprint: other.fingerprint,
    armored_key: await revokedPublicKey(other),
    expired: now,
  })
  t.truthy(wrongKey.json.body.fingerprint?.isMatchingKeyFingerprint)
  t.is(
    (await admin.client.json('/metadata/keys/00000000-0000-4000-8000-000000000000.json', 'PUT', {}))
      .status,
    404,
  )
  t.is((await admin.client.fetch(`/metadata/keys/${id}.json`, { method: 'DELETE' })).status, 400)
  const [before] = await sql('select armored_key, expired from metadata_keys where id = $1', [id])
  t.deepEqual(before, { armored_key: key.armoredPublicKey, expired: null })

  const expired = await expire({ fingerprint: key.fingerprint, armored_key: revoked, expired: now })
  t.is(expired.status, 200, expired.text)
  t.truthy(expired.json.body.expired)
  t.is(expired.json.body.armored_key, revoked)
  const twice = await expire({ fingerprint: key.fingerprint, armored_key: revoked, expired: now })
  t.is(twice.json.header.message, 'The metadata key is already marked as expired.')

  // A live resource still encrypted to it holds it back.
  await sql(
    `insert into resources (id, metadata, metadata_key_id, metadata_key_type, resource_type_id, deleted, created, modified)
     values (gen_random_uuid(), 'x', $1, 'shared_key', 'dd1f723d-0d1e-513f-8218-4055dc0530d0', false, now(), now())`,
    [id],
  )
  const inUse = await admin.client.fetch(`/metadata/keys/${id}.json`, { method: 'DELETE' })
  t.is(
    inUse.json.header.message,
    'The metadata key is still in use, migrate the remaining items to the new key first.',
  )
  await sql('update resources set deleted = true')
  t.is((await ada.client.fetch(`/metadata/keys/${id}.json`, { method: 'DELETE' })).status, 403)
  const deleted = await admin.client.fetch(`/metadata/keys/${id}.json`, { method: 'DELETE' })
  t.is(deleted.status, 200, deleted.text)
  t.deepEqual(await counts(sql), { keys: 1, copies: 0 }, 'the key stays, deleted; its copies go')
  t.is((await admin.client.fetch(`/metadata/keys/${id}.json`, { method: 'DELETE' })).status, 404)
  t.is((await admin.client.fetch('/metadata/keys.json?filter[deleted]=0')).json.body.length, 0)
})

test('administrators share missing copies; a user holds and re-encrypts only their own', async (t) => {
  const { api, admin, ada, bob, sql } = await setup(t)
  const key = await generateMetadataKey()
  const id = await createMetadataKey(api, admin, key)
  const missing = async () =>
    Object.fromEntries(
      (await admin.client.fetch('/users.json?contain[missing_metadata_key_ids]=1')).json.body.map(
        (user: { username: string; missing_metadata_key_ids: string[] }) => [
          user.username.split('@')[0],
          user.missing_metadata_key_ids,
        ],
      ),
    )
  t.deepEqual(await missing(), { admin: [], ada: [id], bob: [id] })
  const notAdmin = await ada.client.fetch('/users.json?contain[missing_metadata_key_ids]=1')
  t.is(notAdmin.status, 403)
  t.is(
    notAdmin.json.header.message,
    'The missing_metadata_key_ids contain is only allowed for administrators.',
  )
  const me = await ada.client.fetch(`/users/${ada.id}.json?contain[missing_metadata_key_ids]=1`)
  t.deepEqual(me.json.body.missing_metadata_key_ids, [id])

  // One copy for ada.
  const forAda = await privateKeyCopy(key, [ada], admin)
  t.is(
    (
      await ada.client.json(`/metadata/keys/${id}/private.json`, 'POST', {
        user_id: ada.id,
        data: forAda,
      })
    ).status,
    403,
  )
  const wrong = await admin.client.json(`/metadata/keys/${id}/private.json`, 'POST', {
    user_id: ada.id,
    data: await privateKeyCopy(key, [bob], admin),
  })
  t.truthy(wrong.json.body.data?.isValidEncryptedMetadataPrivateKey, wrong.text)
  const given = await admin.client.json(`/metadata/keys/${id}/private.json`, 'POST', {
    user_id: ada.id,
    data: forAda,
  })
  t.is(given.status, 200, given.text)
  t.like(given.json.body, { user_id: ada.id, metadata_key_id: id, modified_by: admin.id })
  const again = await admin.client.json(`/metadata/keys/${id}/private.json`, 'POST', {
    user_id: ada.id,
    data: forAda,
  })
  t.is(again.json.header.message, 'The metadata key is already shared with the user.')
  t.is(
    (
      await admin.client.json(
        '/metadata/keys/00000000-0000-4000-8000-000000000000/private.json',
        'POST',
        {
          user_id: ada.id,
          data: forAda,
        },
      )
    ).status,
    404,
  )

  // The batch is all or nothing.
  const forBob = await privateKeyCopy(key, [bob], admin)
  const mixed = await admin.client.json('/metadata/keys/privates.json', 'POST', [
    { metadata_key_id: id, user_id: bob.id, data: forBob },
    { metadata_key_id: id, user_id: ada.id, data: forAda },
  ])
  t.is(mixed.status, 400)
  t.truthy(mixed.json.body[1]?.user_id?._isUnique, mixed.text)
  t.deepEqual(await missing(), { admin: [], ada: [], bob: [id] })
  t.is((await admin.client.json('/metadata/keys/privates.json', 'POST', [])).status, 400)
  t.is(
    (
      await bob.client.json('/metadata/keys/privates.json', 'POST', [
        { metadata_key_id: id, user_id: bob.id, data: forBob },
      ])
    ).status,
    403,
  )
  const shared = await admin.client.json('/metadata/keys/private.json', 'PUT', [
    { metadata_key_id: id, user_id: bob.id, data: forBob },
  ])
  t.is(shared.status, 200, shared.text)
  t.deepEqual(shared.json.body, [])
  t.deepEqual(await missing(), { admin: [], ada: [], bob: [] })

  // Ada re-encrypts (signs) her own copy once; nobody touches hers.
  const adaCopy = (await ada.client.fetch('/metadata/keys.json?contain[metadata_private_keys]=1'))
    .json.body[0].metadata_private_keys[0]
  const signed = await privateKeyCopy(key, [ada], ada)
  t.is(
    (await bob.client.json(`/metadata/keys/private/${adaCopy.id}.json`, 'PUT', { data: signed }))
      .status,
    404,
  )
  const forSomeoneElse = await ada.client.json(`/metadata/keys/private/${adaCopy.id}.json`, 'PUT', {
    data: await privateKeyCopy(key, [bob], ada),
  })
  t.is(forSomeoneElse.status, 400)
  const updated = await ada.client.json(`/metadata/keys/private/${adaCopy.id}.json`, 'PUT', {
    data: signed,
  })
  t.is(updated.status, 200, updated.text)
  t.like(updated.json.body, { id: adaCopy.id, data: signed, modified_by: ada.id })
  const twice = await ada.client.json(`/metadata/keys/private/${adaCopy.id}.json`, 'POST', {
    data: signed,
  })
  t.is(twice.json.header.message, 'The metadata private key was already edited by the user.')
  t.is(
    (await ada.client.json('/metadata/keys/private/not-a-uuid.json', 'PUT', { data: signed }))
      .status,
    400,
  )
  const [row] = await sql('select data from metadata_private_keys where id = $1', [adaCopy.id])
  t.is(row.data, signed)
})

test('session keys: each user’s own, encrypted to them, replaced only from the version read', async (t) => {
  const { ada, bob } = await setup(t)
  const bundle = (text: string, to = ada) => encryptFor(text, [to], to)
  t.deepEqual((await ada.client.fetch('/metadata/session-keys.json')).json.body, [])
  const forBob = await ada.client.json('/metadata/session-keys.json', 'POST', {
    data: await bundle('{}', bob),
  })
  t.is(forBob.status, 400)
  t.truthy(forBob.json.body.data?.isValidEncryptedMetadataSessionKey)
  t.is((await ada.client.json('/metadata/session-keys.json', 'POST', { data: 42 })).status, 400)
  const created = await ada.client.json('/metadata/session-keys.json', 'POST', {
    data: await bundle('{"session_keys":[]}'),
  })
  t.is(created.status, 200, created.text)
  const { id, modified } = created.json.body
  t.like(created.json.body, { user_id: ada.id })
  t.deepEqual((await bob.client.fetch('/metadata/session-keys.json')).json.body, [])
  t.is((await ada.client.fetch('/metadata/session-keys.json')).json.body[0].id, id)

  const next = await bundle('{"session_keys":[1]}')
  t.is(
    (await bob.client.json(`/metadata/session-keys/${id}.json`, 'PUT', { data: next, modified }))
      .status,
    404,
  )
  const stale = await ada.client.json(`/metadata/session-keys/${id}.json`, 'PUT', {
    data: next,
    modified: '2020-01-01T00:00:00+00:00',
  })
  t.is(stale.status, 409)
  t.is(stale.json.header.message, 'The metadata session key data has changed.')
  const same = await ada.client.json(`/metadata/session-keys/${id}.json`, 'PUT', {
    data: created.json.body.data,
    modified,
  })
  t.is(same.json.header.message, 'The metadata session key data is identical.')
  t.is(
    (await ada.client.json(`/metadata/session-keys/${id}.json`, 'PUT', { data: next })).status,
    400,
  )
  const notForAda = await ada.client.json(`/metadata/session-keys/${id}.json`, 'PUT', {
    data: await bundle('{}', bob),
    modified,
  })
  t.is(notForAda.status, 400)
  const replaced = await ada.client.json(`/metadata/session-keys/${id}.json`, 'PUT', {
    data: next,
    modified,
  })
  t.is(replaced.status, 200, replaced.text)
  t.is(replaced.json.body.data, next)
  t.is(
    (await ada.client.fetch('/metadata/session-keys/not-a-uuid.json', { method: 'DELETE' })).status,
    400,
  )
  t.is(
    (await bob.client.fetch(`/metadata/session-keys/${id}.json`, { method: 'DELETE' })).status,
    404,
  )
  t.is(
    (await ada.client.fetch(`/metadata/session-keys/${id}.json`, { method: 'DELETE' })).status,
    200,
  )
  t.deepEqual((await ada.client.fetch('/metadata/session-keys.json')).json.body, [])
})

test('a deleted user keeps no copy of a metadata key and no session keys', async (t) => {
  const { api, admin, ada, sql } = await setup(t)
  const key = await generateMetadataKey()
  const id = await createMetadataKey(api, admin, key)
  const given = await admin.client.json(`/metadata/keys/${id}/private.json`, 'POST', {
    user_id: ada.id,
    data: await privateKeyCopy(key, [ada], admin),
  })
  t.is(given.status, 200, given.text)
  const bundle = await ada.client.json('/metadata/session-keys.json', 'POST', {
    data: await encryptFor('{}', [ada], ada),
  })
  t.is(bundle.status, 200)
  const deleted = await admin.client.fetch(`/users/${ada.id}.json`, { method: 'DELETE' })
  t.is(deleted.status, 200, deleted.text)
  const [left] = await sql(
    `select (select count(*)::int from metadata_private_keys where user_id = $1) as copies,
            (select count(*)::int from metadata_session_keys where user_id = $1) as bundles,
            (select count(*)::int from metadata_private_keys) as all_copies`,
    [ada.id],
  )
  t.deepEqual(left, { copies: 0, bundles: 0, all_copies: 2 })
})

test('keys created at the same moment: never more than two active, never one fingerprint twice', async (t) => {
  const { api, admin, sql } = await setup(t)
  const keys = await Promise.all([1, 2, 3, 4].map(() => generateMetadataKey()))
  const bodyOf = async (key: Awaited<ReturnType<typeof generateMetadataKey>>) => ({
    fingerprint: key.fingerprint,
    armored_key: key.armoredPublicKey,
    metadata_private_keys: [
      { user_id: admin.id, data: await privateKeyCopy(key, [admin], admin) },
      { user_id: null, data: await privateKeyCopy(key, [serverRecipient(api)], admin) },
    ],
  })
  // Each check (the active keys counted) comes long before the insert (the copies' OpenPGP
  // checks in between): only changes that queue up see each other's keys.
  const bodies = await Promise.all([keys[0], keys[0], keys[1], keys[2], keys[3]].map(bodyOf))
  const answers = await Promise.all(
    bodies.map((body) => admin.client.json('/metadata/keys.json', 'POST', body)),
  )
  t.is(
    answers.filter((answer) => answer.status === 200).length,
    2,
    answers.map((a) => `${a.status} ${a.json?.header?.message}`).join('\n'),
  )
  for (const answer of answers.filter((answer) => answer.status !== 200)) {
    t.is(answer.status, 400, answer.text)
    const rule = Object.keys(answer.json.body.fingerprint ?? {})[0]
    t.true(['maxNoOfActiveKeys', '_isUnique'].includes(rule), answer.text)
  }
  t.deepEqual(
    await sql(
      `select (select count(*)::int from metadata_keys where expired is null and deleted is null) as active,
              (select count(distinct upper(fingerprint))::int from metadata_keys) as fingerprints,
              (select count(*)::int from metadata_private_keys) as copies`,
    ),
    [{ active: 2, fingerprints: 2, copies: 4 }],
  )
})

test('copies of one key for one user sent at the same moment: one is kept, the others told so', async (t) => {
  const { api, admin, ada, sql } = await setup(t)
  const key = await generateMetadataKey()
  const id = await createMetadataKey(api, admin, key)
  const data = await privateKeyCopy(key, [ada], admin)
  const answers = await Promise.all([
    ...[1, 2, 3].map(() =>
      admin.client.json(`/metadata/keys/${id}/private.json`, 'POST', { user_id: ada.id, data }),
    ),
    ...[1, 2].map(() =>
      admin.client.json('/metadata/keys/privates.json', 'POST', [
        { metadata_key_id: id, user_id: ada.id, data },
      ]),
    ),
  ])
  t.is(
    answers.filter((answer) => answer.status === 200).length,
    1,
    answers.map((a) => `${a.status} ${a.json?.header?.message}`).join('\n'),
  )
  for (const answer of answers.filter((answer) => answer.status !== 200)) {
    t.is(answer.status, 400, answer.text)
    t.regex(answer.text, /already|_isUnique/)
  }
  t.deepEqual(
    await sql('select count(*)::int as n from metadata_private_keys where user_id = $1', [ada.id]),
    [{ n: 1 }],
  )
})
