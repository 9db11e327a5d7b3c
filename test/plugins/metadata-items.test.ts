// Encrypted metadata on the items themselves, over real HTTP, PostgreSQL and OpenPGP: the
// settings administrators choose, v5 resources and folders on the shared key, the upgrade of v4
// resources and folders and the rotation to a new key, batch by batch, with no plaintext left.
import test, { type ExecutionContext } from 'ava'
import { runInTransaction } from '../../api/db/transaction.ts'
import { userActivation } from '../../plugins/users/index.ts'
import { startTestApi } from '../helpers/api.ts'
import {
  createMetadataKey,
  generateMetadataKey,
  type MetadataKey,
  resourceMetadata,
  revokedPublicKey,
  V5_SETTINGS,
} from '../helpers/metadata.ts'
import {
  createPassword,
  decryptAs,
  encryptFor,
  type Member,
  sqlOf,
  team,
  V5_DEFAULT,
} from '../helpers/vault.ts'

const setup = async (t: ExecutionContext, env: Record<string, string> = {}) => {
  const api = await startTestApi(t, { env })
  const [admin, ada, bob] = await team(api, ['admin', 'ada', 'bob'], 'admin')
  return { api, admin, ada, bob, sql: sqlOf(api) }
}

const enableV5 = async (admin: Member) => {
  const saved = await admin.client.json('/metadata/types/settings.json', 'POST', V5_SETTINGS)
  if (saved.status !== 200) throw new Error(saved.text)
}

const secretFor = (member: Member) =>
  encryptFor('{"object_type":"PASSBOLT_SECRET_DATA","password":"p"}', [member], member)

const createV5 = async (owner: Member, key: MetadataKey, keyId: string, name: string) =>
  owner.client.json('/resources.json', 'POST', {
    resource_type_id: V5_DEFAULT,
    metadata_key_type: 'shared_key',
    metadata_key_id: keyId,
    metadata: await resourceMetadata(V5_DEFAULT, { name, uris: ['https://x.test'] }, key),
    secrets: [{ data: await secretFor(owner) }],
  })

test('administrators choose the metadata settings, within passbolt’s rules', async (t) => {
  const { api, admin, ada } = await setup(t)
  t.is((await ada.client.json('/metadata/types/settings.json', 'POST', V5_SETTINGS)).status, 403)
  const noKey = await admin.client.json('/metadata/types/settings.json', 'PUT', V5_SETTINGS)
  t.is(noKey.status, 400)
  t.regex(noKey.json.header.message, /An active metadata key could not be found/)
  const invalid = await admin.client.json('/metadata/types/settings.json', 'POST', {
    ...V5_SETTINGS,
    default_folder_type: 'v6',
    allow_creation_of_v5_tags: 'perhaps',
    allow_v4_v5_upgrade: undefined,
    allow_creation_of_v5_comments: false,
    allow_creation_of_v4_comments: false,
    default_resource_types: 'v4',
    allow_creation_of_v4_resources: false,
  })
  t.is(invalid.status, 400)
  t.like(invalid.json.body, {
    default_folder_type: { inList: 'The setting should be one of the following: v4, v5.' },
    allow_creation_of_v5_tags: { boolean: 'The setting should be a valid boolean.' },
    allow_v4_v5_upgrade: { _required: 'The setting is required.' },
    allow_creation_of_v4_comments: { atLeastOne: 'Both v4 and v5 settings cannot be disabled.' },
    default_resource_types: {
      defaultTypeMustBeEnabled:
        'The content type needs to be enabled in order to be set as default.',
    },
  })
  await createMetadataKey(api, admin, await generateMetadataKey())
  const saved = await admin.client.json('/metadata/types/settings.json', 'POST', {
    ...V5_SETTINGS,
    allow_v4_v5_upgrade: '1',
  })
  t.is(saved.status, 200, saved.text)
  t.deepEqual((await ada.client.fetch('/metadata/types/settings.json')).json.body, V5_SETTINGS)

  // Keys settings: zero-knowledge drops the server's copies.
  t.is(
    (
      await ada.client.json('/metadata/keys/settings.json', 'POST', {
        allow_usage_of_personal_keys: true,
        zero_knowledge_key_share: true,
      })
    ).status,
    403,
  )
  const missing = await admin.client.json('/metadata/keys/settings.json', 'POST', {
    allow_usage_of_personal_keys: true,
  })
  t.like(missing.json.body, { zero_knowledge_key_share: { _required: 'The setting is required.' } })
  const sql = sqlOf(api)
  t.is(
    (await sql('select count(*)::int as n from metadata_private_keys where user_id is null'))[0].n,
    1,
  )
  const zk = await admin.client.json('/metadata/keys/settings.json', 'PUT', {
    allow_usage_of_personal_keys: false,
    zero_knowledge_key_share: true,
  })
  t.is(zk.status, 200, zk.text)
  t.is(
    (await sql('select count(*)::int as n from metadata_private_keys where user_id is null'))[0].n,
    0,
  )
  t.deepEqual((await ada.client.fetch('/metadata/keys/settings.json')).json.body, {
    allow_usage_of_personal_keys: false,
    zero_knowledge_key_share: true,
  })
  // Personal keys are now refused for new items.
  const personal = await ada.client.json('/resources.json', 'POST', {
    resource_type_id: V5_DEFAULT,
    metadata_key_type: 'user_key',
    metadata: await resourceMetadata(V5_DEFAULT, { name: 'mine' }, ada),
    secrets: [{ data: await secretFor(ada) }],
  })
  t.is(personal.status, 400)
  t.truthy(personal.json.body.metadata_key_type?.isMetadataKeyTypeAllowedBySettings)
})

test('/settings.json announces metadata; a new organisation starts in v5 unless configured v4', async (t) => {
  const api = await startTestApi(t)
  const none = await api.request('/metadata/setup/settings.json', { role: 'user' })
  t.deepEqual(none.json.body, { enable_encrypted_metadata_on_install: false }, 'no account yet')
  const started = await api.request('/metadata/settings/getting-started.json', { role: 'user' })
  t.deepEqual(started.json.body, { enabled: true })
  const [admin] = await team(api, ['admin'], 'admin')
  t.deepEqual((await admin.client.fetch('/metadata/setup/settings.json')).json.body, {
    enable_encrypted_metadata_on_install: true,
  })
  const plugins = (await admin.client.fetch('/settings.json')).json.body.passbolt.plugins
  t.like(plugins.metadata, { enabled: true, version: '1.0.0' })
  t.true(plugins.totpResourceTypes.enabled)
  await team(api, ['ada'])
  t.deepEqual((await admin.client.fetch('/metadata/setup/settings.json')).json.body, {
    enable_encrypted_metadata_on_install: false,
  })
  // A new user's setup shares the metadata keys (none yet) under the key settings' row lock,
  // which makes that row empty: no choice, so administrators are still invited.
  for (const { activated } of userActivation.of(api.app.plugins))
    await runInTransaction(api.app.orm.em.fork(), (em) =>
      activated({ em, userId: admin.id }, api.app),
    )
  t.deepEqual(
    await sqlOf(api)("select value from organization_settings where property = 'metadataKeys'"),
    [{ value: {} }],
  )
  t.deepEqual((await admin.client.fetch('/metadata/settings/getting-started.json')).json.body, {
    enabled: true,
  })
  await createMetadataKey(api, admin, await generateMetadataKey())
  t.deepEqual((await admin.client.fetch('/metadata/settings/getting-started.json')).json.body, {
    enabled: false,
  })

  const v4 = await startTestApi(t, { env: { KEYWARD_METADATA_NEW_ORGANISATIONS: 'v4' } })
  const [first] = await team(v4, ['admin'], 'admin')
  t.false(
    (await first.client.fetch('/metadata/setup/settings.json')).json.body
      .enable_encrypted_metadata_on_install,
  )
  t.false((await first.client.fetch('/metadata/settings/getting-started.json')).json.body.enabled)
})

test('v5 resources and folders on the shared key; personal folders are not shared', async (t) => {
  const { api, admin, ada, bob, sql } = await setup(t)
  const key = await generateMetadataKey()
  const keyId = await createMetadataKey(api, admin, key)
  const refusedFolder = await ada.client.json('/folders.json', 'POST', {
    metadata_key_type: 'shared_key',
    metadata_key_id: keyId,
    metadata: await encryptFor('{"name":"f"}', [key]),
  })
  t.is(
    refusedFolder.json.header.message,
    'Folder creation/modification with encrypted metadata not allowed.',
  )
  await enableV5(admin)
  const resource = await createV5(ada, key, keyId, 'bank')
  t.is(resource.status, 200, resource.text)
  t.like(resource.json.body, { metadata_key_type: 'shared_key', metadata_key_id: keyId })
  const folderMetadata = await encryptFor(
    JSON.stringify({ object_type: 'PASSBOLT_FOLDER_METADATA', name: 'Ops' }),
    [key],
  )
  const folder = await ada.client.json('/folders.json', 'POST', {
    metadata_key_type: 'shared_key',
    metadata_key_id: keyId,
    metadata: folderMetadata,
  })
  t.is(folder.status, 200, folder.text)
  t.like(folder.json.body, { metadata: folderMetadata, metadata_key_id: keyId })
  t.false('name' in folder.json.body)
  const forBob = await ada.client.json('/folders.json', 'POST', {
    metadata_key_type: 'shared_key',
    metadata_key_id: keyId,
    metadata: await encryptFor('{}', [bob]),
  })
  t.truthy(forBob.json.body.metadata?.isValidEncryptedResourceMetadata)
  const mixed = await ada.client.json('/folders.json', 'POST', {
    name: 'clear',
    metadata_key_type: 'shared_key',
    metadata_key_id: keyId,
    metadata: folderMetadata,
  })
  t.is(mixed.json.header.message, 'V4 related fields are not supported for V5.')
  // A personal folder (encrypted to its owner's key) is not shared until re-encrypted.
  const personal = await ada.client.json('/folders.json', 'POST', {
    metadata_key_type: 'user_key',
    metadata: await encryptFor('{"name":"mine"}', [ada]),
  })
  t.is(personal.status, 200, personal.text)
  const share = await ada.client.json(`/share/folder/${personal.json.body.id}.json`, 'PUT', {
    permissions: [{ aro: 'User', aro_foreign_key: bob.id, type: 1 }],
  })
  t.is(share.json.header.message, 'Folder can not be shared')
  const reencrypted = await ada.client.json(`/folders/${personal.json.body.id}.json`, 'PUT', {
    metadata_key_type: 'shared_key',
    metadata_key_id: keyId,
    metadata: await encryptFor('{"name":"mine"}', [key]),
  })
  t.is(reencrypted.status, 200, reencrypted.text)
  t.is(
    (
      await ada.client.json(`/share/folder/${personal.json.body.id}.json`, 'PUT', {
        permissions: [{ aro: 'User', aro_foreign_key: bob.id, type: 1 }],
      })
    ).status,
    200,
  )
  const bobsFolder = (await bob.client.fetch(`/folders/${personal.json.body.id}.json`)).json.body
  t.is(JSON.parse(await decryptAs(bobsFolder.metadata, key)).name, 'mine')
  const rows = await sql('select name from folders')
  t.true(
    rows.every((row) => row.name === null),
    'no folder name in clear',
  )
})

test('the upgrade batches turn v4 items into v5 page by page, refusing stale or foreign ones', async (t) => {
  const { api, admin, ada, bob, sql } = await setup(t)
  const key = await generateMetadataKey()
  const keyId = await createMetadataKey(api, admin, key)
  for (let i = 0; i < 23; i++) await createPassword(ada, `site${String(i).padStart(2, '0')}`)
  await ada.client.json('/folders.json', 'POST', { name: 'Clear folder' })
  t.is((await ada.client.fetch('/metadata/upgrade/resources.json')).status, 403)
  const first = await admin.client.fetch(
    '/metadata/upgrade/resources.json?contain[permissions]=1&page=2',
  )
  t.is(first.status, 200, first.text)
  t.is(first.json.body.length, 20)
  t.deepEqual(first.json.header.pagination, { count: 23, page: 1, limit: 20 })
  t.is(first.json.body[0].permissions[0].aro_foreign_key, ada.id)
  t.is(
    (await admin.client.fetch('/metadata/upgrade/resources.json?filter[is-shared]=1')).json.body
      .length,
    0,
  )

  const toV5 = async (row: {
    id: string
    name: string
    modified: string
    modified_by: string
  }) => ({
    id: row.id,
    metadata_key_id: keyId,
    metadata_key_type: 'shared_key',
    metadata: await resourceMetadata(V5_DEFAULT, { name: row.name }, key),
    modified: row.modified,
    modified_by: row.modified_by,
  })
  const batch = await Promise.all(first.json.body.map(toV5))
  // Refusals leave every row as it was.
  const stale = await admin.client.json('/metadata/upgrade/resources.json', 'POST', [
    ...batch.slice(0, 5),
    { ...batch[5], modified: '2020-01-01T00:00:00+00:00' },
  ])
  t.is(stale.status, 409)
  t.is(stale.json.header.message, 'The provided modified date does not match.')
  const otherModifier = await admin.client.json('/metadata/upgrade/resources.json', 'POST', [
    { ...batch[0], modified_by: bob.id },
  ])
  t.is(otherModifier.json.header.message, 'The provided modified by does not match.')
  const wrongKey = await admin.client.json('/metadata/upgrade/resources.json', 'POST', [
    batch[0],
    { ...batch[1], metadata: await encryptFor('{}', [bob]) },
  ])
  t.is(wrongKey.status, 400)
  t.truthy(wrongKey.json.body[1]?.metadata?.isValidEncryptedResourceMetadata, wrongKey.text)
  const unknown = await admin.client.json('/metadata/upgrade/resources.json', 'POST', [
    { ...batch[0], id: '00000000-0000-4000-8000-000000000000' },
  ])
  t.is(unknown.status, 404)
  t.is((await admin.client.json('/metadata/upgrade/resources.json', 'POST', [])).status, 400)
  const tooMany = Array.from({ length: 201 }, (_, i) => ({
    ...batch[0],
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  }))
  t.is(
    (await admin.client.json('/metadata/upgrade/resources.json', 'POST', tooMany)).json.header
      .message,
    'The request data is too large.',
  )
  t.is((await sql('select count(*)::int as n from resources where metadata is not null'))[0].n, 0)

  const next = await admin.client.json('/metadata/upgrade/resources.json', 'POST', batch)
  t.is(next.status, 200, next.text)
  t.is(next.json.body.length, 3, 'the next page')
  t.deepEqual(next.json.header.pagination, { count: 3, page: 1, limit: 20 })
  const last = await admin.client.json(
    '/metadata/upgrade/resources.json',
    'POST',
    await Promise.all(next.json.body.map(toV5)),
  )
  t.deepEqual(last.json.body, [])
  const rows = await sql(
    `select r.name, r.username, r.uri, r.description, r.metadata_key_id, t.slug, r.modified_by
     from resources r join resource_types t on t.id = r.resource_type_id`,
  )
  t.is(rows.length, 23)
  for (const row of rows)
    t.deepEqual(row, {
      name: null,
      username: null,
      uri: null,
      description: null,
      metadata_key_id: keyId,
      slug: 'v5-default',
      modified_by: admin.id,
    })
  // Ada still reads her password, now through the shared key.
  const mine = (await ada.client.fetch('/resources.json')).json.body
  t.is(mine.length, 23)
  t.regex(JSON.parse(await decryptAs(mine[0].metadata, key)).name, /^site\d\d$/)

  // Folders the same way.
  const folders = await admin.client.fetch('/metadata/upgrade/folders.json')
  t.is(folders.json.body.length, 1)
  const [clear] = folders.json.body
  const upgraded = await admin.client.json('/metadata/upgrade/folders.json', 'POST', [
    {
      id: clear.id,
      metadata_key_id: keyId,
      metadata_key_type: 'shared_key',
      metadata: await encryptFor(JSON.stringify({ name: clear.name }), [key]),
      modified: clear.modified,
      modified_by: clear.modified_by,
    },
  ])
  t.deepEqual(upgraded.json.body, [], upgraded.text)
  t.deepEqual(await sql('select name from folders'), [{ name: null }])
})

test('rotation: items on an expired key move to the new one, and the old key can then go', async (t) => {
  const { api, admin, ada, sql } = await setup(t)
  const oldKey = await generateMetadataKey()
  const oldId = await createMetadataKey(api, admin, oldKey)
  await enableV5(admin)
  for (const name of ['a', 'b']) t.is((await createV5(ada, oldKey, oldId, name)).status, 200)
  t.deepEqual(
    (await admin.client.fetch('/metadata/rotate-key/resources.json')).json.body,
    [],
    'nothing expired yet',
  )
  const newKey = await generateMetadataKey()
  const newId = await createMetadataKey(api, admin, newKey)
  const expired = await admin.client.json(`/metadata/keys/${oldId}.json`, 'POST', {
    fingerprint: oldKey.fingerprint,
    armored_key: await revokedPublicKey(oldKey),
    expired: new Date().toISOString(),
  })
  t.is(expired.status, 200, expired.text)
  // New items may no longer use the expired key.
  const onOld = await createV5(ada, oldKey, oldId, 'late')
  t.truthy(onOld.json.body.metadata_key_id?.isMetadataKeyNotExpired)
  const page = await admin.client.fetch('/metadata/rotate-key/resources.json')
  t.is(page.json.body.length, 2)
  const rotate = async (
    row: { id: string; modified: string; modified_by: string },
    key: MetadataKey,
    id: string,
  ) => ({
    id: row.id,
    metadata_key_id: id,
    metadata_key_type: 'shared_key',
    metadata: await resourceMetadata(V5_DEFAULT, { name: 'rotated' }, key),
    modified: row.modified,
    modified_by: row.modified_by,
  })
  const toOld = await admin.client.json('/metadata/rotate-key/resources.json', 'POST', [
    await rotate(page.json.body[0], oldKey, oldId),
  ])
  t.is(toOld.status, 400, 'not back to the expired key')
  const deleteEarly = await admin.client.fetch(`/metadata/keys/${oldId}.json`, { method: 'DELETE' })
  t.is(deleteEarly.status, 400)
  const done = await admin.client.json(
    '/metadata/rotate-key/resources.json',
    'POST',
    await Promise.all(page.json.body.map((row: never) => rotate(row, newKey, newId))),
  )
  t.deepEqual(done.json.body, [], done.text)
  t.deepEqual(await sql('select distinct metadata_key_id from resources'), [
    { metadata_key_id: newId },
  ])
  const again = await admin.client.json('/metadata/rotate-key/resources.json', 'POST', [
    await rotate(page.json.body[0], newKey, newId),
  ])
  t.is(again.status, 404, 'an item no longer left to rotate')
  t.is((await admin.client.fetch(`/metadata/keys/${oldId}.json`, { method: 'DELETE' })).status, 200)
  const list = (await ada.client.fetch('/resources.json')).json.body
  for (const resource of list)
    t.is(JSON.parse(await decryptAs(resource.metadata, newKey)).name, 'rotated')
})
