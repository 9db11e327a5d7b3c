// The server's own copy of a metadata private key, on every route that writes one: refused in
// zero-knowledge mode (the server must not be able to read the key), and otherwise read as the
// server reads it before giving it to a new user (decrypted with the server key, signed by the
// administrator who writes it, the private half of that metadata key), so the server never
// keeps a copy it would later refuse to pass on. Each refusal is a 400 naming the rule and
// writes nothing. Real HTTP, PostgreSQL and OpenPGP keys.
import test, { type ExecutionContext } from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { generateUserKey } from '../helpers/client.ts'
import {
  createMetadataKey,
  generateMetadataKey,
  type MetadataKey,
  privateKeyCopy,
  privateKeyText,
  serverRecipient,
} from '../helpers/metadata.ts'
import { encryptFor, sqlOf, team } from '../helpers/vault.ts'

const setup = async (t: ExecutionContext) => {
  const api = await startTestApi(t)
  const [admin, other, ada] = await team(api, ['admin', 'other', 'ada'], 'admin')
  // A second administrator, to sign a copy the first one sends.
  await sqlOf(api)(
    "update users set role_id = (select id from roles where name = 'admin') where id = $1",
    [other.id],
  )
  return { api, admin, other, ada, sql: sqlOf(api) }
}

type Setup = Awaited<ReturnType<typeof setup>>

/** Every stored copy, as (key, holder) pairs: what a refusal must leave unchanged. */
const copies = async (sql: Setup['sql']) =>
  (
    await sql(
      `select metadata_key_id, coalesce(user_id::text, 'server') as holder
       from metadata_private_keys`,
    )
  )
    .map((row) => `${row.metadata_key_id}:${row.holder}`)
    .sort()

/** Server copies that cannot be passed on, each named; the writer is `admin`. */
const badServerCopies = async ({ api, admin, other }: Setup, key: MetadataKey) => {
  const forServer = (text: string, signer?: Parameters<typeof encryptFor>[2]) =>
    encryptFor(text, [serverRecipient(api)], signer)
  const mallory = await generateUserKey('mallory@keyward.test')
  const another = await generateMetadataKey()
  return [
    ['unsigned', await forServer(privateKeyText(key))],
    ['signed by another administrator', await forServer(privateKeyText(key), other)],
    ['signed by a key nobody here holds', await forServer(privateKeyText(key), mallory)],
    ['another metadata key’s private half', await forServer(privateKeyText(another), admin)],
    ['not a private key object', await forServer('{"object_type":"X"}', admin)],
    ['not JSON', await forServer('the key', admin)],
  ] as const
}

const setZeroKnowledge = async ({ admin }: Setup, on: boolean, serverCopy?: unknown) =>
  admin.client.json('/metadata/keys/settings.json', 'POST', {
    allow_usage_of_personal_keys: true,
    zero_knowledge_key_share: on,
    ...(serverCopy === undefined ? {} : { metadata_private_keys: [serverCopy] }),
  })

test('creating a key: a server copy must be signed by its writer and be the key’s private half', async (t) => {
  const context = await setup(t)
  const { api, admin, sql } = context
  const key = await generateMetadataKey()
  const ownCopy = { user_id: admin.id, data: await privateKeyCopy(key, [admin], admin) }
  for (const [label, data] of await badServerCopies(context, key)) {
    const response = await admin.client.json('/metadata/keys.json', 'POST', {
      fingerprint: key.fingerprint,
      armored_key: key.armoredPublicKey,
      metadata_private_keys: [ownCopy, { user_id: null, data }],
    })
    t.is(response.status, 400, label)
    t.truthy(
      response.json.body?.metadata_private_keys?.[1]?.data?.isValidServerMetadataPrivateKey,
      `${label}: ${response.text}`,
    )
    t.is(
      response.json.body?.metadata_private_keys?.[0],
      undefined,
      `${label}: her own copy is fine`,
    )
  }
  t.deepEqual(await copies(sql), [], 'nothing written by a refusal')
  t.deepEqual(await sql('select id from metadata_keys'), [])
  const id = await createMetadataKey(api, admin, key)
  t.deepEqual(await copies(sql), [`${id}:${admin.id}`, `${id}:server`].sort())
})

test('in zero-knowledge mode no route gives the server a copy, however well made', async (t) => {
  const context = await setup(t)
  const { api, admin, ada: member, sql } = context
  const key = await generateMetadataKey()
  const keyId = await createMetadataKey(api, admin, key)
  t.is((await setZeroKnowledge(context, true)).status, 200)
  t.deepEqual(
    await copies(sql),
    [`${keyId}:${admin.id}`],
    'entering the mode drops the server copy',
  )
  const serverCopy = {
    user_id: null,
    data: await privateKeyCopy(key, [serverRecipient(api)], admin),
  }
  const refusedRule = (body: unknown) => JSON.stringify(body).includes('"isServerCopyAllowed"')

  const one = await admin.client.json(`/metadata/keys/${keyId}/private.json`, 'POST', serverCopy)
  t.is(one.status, 400, one.text)
  t.truthy(one.json.body?.user_id?.isServerCopyAllowed, one.text)

  // All or nothing: the member's good copy is not stored beside the refused one.
  const many = await admin.client.json('/metadata/keys/privates.json', 'POST', [
    {
      metadata_key_id: keyId,
      user_id: member.id,
      data: await privateKeyCopy(key, [member], admin),
    },
    { metadata_key_id: keyId, ...serverCopy },
  ])
  t.is(many.status, 400, many.text)
  t.truthy(many.json.body?.[1]?.user_id?.isServerCopyAllowed, many.text)
  t.is(many.json.body?.[0], undefined)

  // A new key made in this mode carries copies for users only.
  const next = await generateMetadataKey()
  const created = await admin.client.json('/metadata/keys.json', 'POST', {
    fingerprint: next.fingerprint,
    armored_key: next.armoredPublicKey,
    metadata_private_keys: [
      { user_id: admin.id, data: await privateKeyCopy(next, [admin], admin) },
      { user_id: null, data: await privateKeyCopy(next, [serverRecipient(api)], admin) },
    ],
  })
  t.is(created.status, 400, created.text)
  t.true(refusedRule(created.json.body), created.text)
  t.deepEqual(await copies(sql), [`${keyId}:${admin.id}`], 'nothing written by a refusal')
  t.is((await sql('select count(*)::int as n from metadata_keys'))[0].n, 1)
})

test('leaving zero-knowledge mode takes only a server copy the server can pass on', async (t) => {
  const context = await setup(t)
  const { api, admin, sql } = context
  const key = await generateMetadataKey()
  const keyId = await createMetadataKey(api, admin, key)
  t.is((await setZeroKnowledge(context, true)).status, 200)
  const mode = async () =>
    (
      await sql(
        "select value->>'zero_knowledge_key_share' as zk from organization_settings where property = 'metadataKeys'",
      )
    )[0]?.zk
  t.is(await mode(), 'true')
  const good = {
    metadata_key_id: keyId,
    user_id: null,
    data: await privateKeyCopy(key, [serverRecipient(api)], admin),
  }
  // The copy is required, alone, and for the server.
  const leave = (extra: Record<string, unknown>) =>
    admin.client.json('/metadata/keys/settings.json', 'POST', {
      allow_usage_of_personal_keys: true,
      zero_knowledge_key_share: false,
      ...extra,
    })
  const shapes: [string, Record<string, unknown>, string][] = [
    ['no copy', {}, '_required'],
    ['an empty list', { metadata_private_keys: [] }, 'hasAtLeast'],
    ['two copies', { metadata_private_keys: [good, good] }, 'hasAtMost'],
  ]
  for (const [label, extra, rule] of shapes) {
    const response = await leave(extra)
    t.is(response.status, 400, label)
    t.truthy(response.json.body?.metadata_private_keys?.[rule], `${label}: ${response.text}`)
  }
  const forUser = await leave({ metadata_private_keys: [{ ...good, user_id: admin.id }] })
  t.truthy(forUser.json.body?.metadata_private_keys?.[0]?.user_id?.onlyNullAllowed, forUser.text)
  t.is(await mode(), 'true', 'still zero-knowledge')
  for (const [label, data] of await badServerCopies(context, key)) {
    const response = await setZeroKnowledge(context, false, {
      metadata_key_id: keyId,
      user_id: null,
      data,
    })
    t.is(response.status, 400, label)
    t.truthy(
      response.json.body?.metadata_private_keys?.[0]?.data?.isValidServerMetadataPrivateKey,
      `${label}: ${response.text}`,
    )
    t.is(await mode(), 'true', `${label}: still zero-knowledge`)
    t.deepEqual(await copies(sql), [`${keyId}:${admin.id}`], `${label}: no server copy`)
  }
  const left = await setZeroKnowledge(context, false, good)
  t.is(left.status, 200, left.text)
  t.is(await mode(), 'false')
  t.deepEqual(await copies(sql), [`${keyId}:${admin.id}`, `${keyId}:server`].sort())
  // Outside the switch the field is ignored: the server keeps the one copy it has.
  const again = await setZeroKnowledge(context, false, good)
  t.is(again.status, 200, again.text)
  t.deepEqual(await copies(sql), [`${keyId}:${admin.id}`, `${keyId}:server`].sort())
})

test('outside zero-knowledge mode an administrator restores the server copy only in a form it can pass on', async (t) => {
  const context = await setup(t)
  const { api, admin, sql } = context
  const key = await generateMetadataKey()
  const keyId = await createMetadataKey(api, admin, key)
  await sql('delete from metadata_private_keys where user_id is null')
  for (const [label, data] of await badServerCopies(context, key)) {
    const one = await admin.client.json(`/metadata/keys/${keyId}/private.json`, 'POST', {
      user_id: null,
      data,
    })
    t.is(one.status, 400, label)
    t.truthy(one.json.body?.data?.isValidServerMetadataPrivateKey, `${label}: ${one.text}`)
    const many = await admin.client.json('/metadata/keys/privates.json', 'POST', [
      { metadata_key_id: keyId, user_id: null, data },
    ])
    t.is(many.status, 400, label)
    t.truthy(many.json.body?.[0]?.data?.isValidServerMetadataPrivateKey, `${label}: ${many.text}`)
  }
  t.deepEqual(await copies(sql), [`${keyId}:${admin.id}`])
  const restored = await admin.client.json(`/metadata/keys/${keyId}/private.json`, 'POST', {
    user_id: null,
    data: await privateKeyCopy(key, [serverRecipient(api)], admin),
  })
  t.is(restored.status, 200, restored.text)
  t.like(restored.json.body, { user_id: null, created_by: admin.id, modified_by: admin.id })
})
