// A small passbolt 5.12 organisation in a fresh MariaDB database, and an empty migrated Keyward
// target, for the tests of `api migrate-from-passbolt`.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ExecutionContext } from 'ava'
import * as openpgp from 'openpgp'
import { allMigrations, createOrm, migrate } from '../../api/orm.ts'
import { plugins } from '../../plugins/index.ts'
import { startTestApi } from '../helpers/api.ts'
import { generateUserKey, gpgAuthLogin, TestClient, type TestUserKey } from '../helpers/client.ts'
import { createTestDatabase } from '../helpers/database.ts'
import { createPassboltDatabase, type MariaDb } from './fixture.ts'

export const V4_TYPE = 'a28a04cd-6f53-518a-967c-9963bf9cec51' // password-and-description
export const V5_TYPE = 'dd1f723d-0d1e-513f-8218-4055dc0530d0' // v5-default
export const CREATED = new Date('2024-03-05T10:20:30Z')
export const MODIFIED = new Date('2025-01-02T03:04:05Z')
export const stamps = { created: CREATED, modified: MODIFIED }

export const tempDir = (t: ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-passbolt-import-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

export const encryptTo = async (key: TestUserKey, text: string) =>
  (await openpgp.encrypt({
    message: await openpgp.createMessage({ text }),
    encryptionKeys: key.publicKey,
  })) as string

export interface Person {
  id: string
  key: TestUserKey
}

/** A small passbolt organisation: two people sharing through a group, personal passwords, a
 * folder, a disabled and a deleted user, and rows passbolt let through that Keyward refuses. */
/** passbolt's v4 `password-and-description` type, under its fixed id. */
export const insertPasswordType = (db: MariaDb) =>
  db.insert('resource_types', {
    id: V4_TYPE,
    slug: 'password-and-description',
    name: 'Password with description',
    definition: '{}',
    ...stamps,
  })

/** An organisation setting as passbolt stores it, `value` as text, saved by `author`. */
export const insertOrganizationSetting = (
  db: MariaDb,
  author: string,
  setting: { id: string; property: string; value: string },
) =>
  db.insert('organization_settings', {
    ...setting,
    property_id: randomUUID(),
    ...stamps,
    created_by: author,
    modified_by: author,
  })

export const buildOrganisation = async (t: ExecutionContext) => {
  const db = await createPassboltDatabase(t)
  const roles = {
    admin: randomUUID(),
    user: randomUUID(),
    guest: randomUUID(),
    auditor: randomUUID(),
  }
  for (const [name, id] of Object.entries(roles))
    await db.insert('roles', { id, name, description: `${name} role`, ...stamps })
  await insertPasswordType(db)
  await db.insert('resource_types', {
    id: V5_TYPE,
    slug: 'v5-default',
    name: 'Password',
    definition: '{}',
    ...stamps,
  })
  const person = async (
    username: string,
    role: string,
    extra: Record<string, unknown> = {},
  ): Promise<Person> => {
    const id = randomUUID()
    const key = await generateUserKey(username)
    await db.insert('users', { id, role_id: role, username, active: 1, ...stamps, ...extra })
    await db.insert('profiles', {
      id: randomUUID(),
      user_id: id,
      first_name: username.split('@')[0],
      last_name: 'Example',
      ...stamps,
    })
    await db.insert('gpgkeys', {
      id: randomUUID(),
      user_id: id,
      armored_key: key.armoredPublicKey,
      bits: 255,
      uid: `Test User <${username}>`,
      key_id: key.fingerprint.slice(-8),
      fingerprint: key.fingerprint,
      type: 'EdDSA',
      key_created: CREATED,
      ...stamps,
    })
    return { id, key }
  }
  const ada = await person('ada@example.com', roles.admin)
  const bob = await person('bob@example.com', roles.user)
  const carol = await person('carol@example.com', roles.user, { disabled: MODIFIED })
  const dave = await person('dave@example.com', roles.user, { deleted: 1 })

  const team = randomUUID()
  await db.insert('groups', {
    id: team,
    name: 'Team',
    ...stamps,
    created_by: ada.id,
    modified_by: ada.id,
  })
  for (const [user, isAdmin] of [
    [ada, 1],
    [bob, 0],
  ] as const)
    await db.insert('groups_users', {
      id: randomUUID(),
      group_id: team,
      user_id: user.id,
      is_admin: isAdmin,
      created: CREATED,
    })

  const resource = async (owner: Person, row: Record<string, unknown>) => {
    const id = randomUUID()
    await db.insert('resources', {
      id,
      ...stamps,
      created_by: owner.id,
      modified_by: owner.id,
      ...row,
    })
    await permission('Resource', id, 'User', owner.id, 15)
    return id
  }
  const permission = (aco: string, item: string, aro: string, holder: string, type: number) =>
    db.insert('permissions', {
      id: randomUUID(),
      aco,
      aco_foreign_key: item,
      aro,
      aro_foreign_key: holder,
      type,
      ...stamps,
    })
  const place = (user: Person, model: string, item: string, parent: string | null) =>
    db.insert('folders_relations', {
      id: randomUUID(),
      foreign_model: model,
      foreign_id: item,
      user_id: user.id,
      folder_parent_id: parent,
      ...stamps,
    })
  const secret = async (user: Person, resourceId: string, text: string) => {
    const id = randomUUID()
    await db.insert('secrets', {
      id,
      user_id: user.id,
      resource_id: resourceId,
      data: await encryptTo(user.key, text),
      ...stamps,
    })
    return id
  }

  // Shared with the group, v4 columns in clear.
  const shared = await resource(ada, {
    name: 'Shared wifi',
    username: 'office',
    resource_type_id: V4_TYPE,
  })
  await permission('Resource', shared, 'Group', team, 1)
  await secret(ada, shared, '{"password":"shared-wifi-secret","description":""}')
  await secret(bob, shared, '{"password":"shared-wifi-secret","description":""}')
  // Bob's own v5 item: its metadata is an OpenPGP message to Bob alone.
  const bobsOwn = await resource(bob, {
    metadata: await encryptTo(
      bob.key,
      '{"object_type":"PASSBOLT_RESOURCE_METADATA","name":"Bank"}',
    ),
    metadata_key_id: null,
    metadata_key_type: 'user_key',
    resource_type_id: V5_TYPE,
  })
  await secret(bob, bobsOwn, '{"object_type":"PASSBOLT_SECRET_DATA","password":"bob-bank-pin"}')
  // The organisation's metadata key: Bob's copy of its private part, the server's, Dave's (deleted),
  // Bob's session-key cache, and an item shared with the group whose metadata uses that key.
  const metadataKey = await openpgp.generateKey({
    type: 'ecc',
    curve: 'curve25519Legacy',
    userIDs: [{ name: 'Metadata key', email: 'no-reply@passbolt.example.com' }],
    format: 'object',
  })
  const metadataKeyId = randomUUID()
  await db.insert('metadata_keys', {
    id: metadataKeyId,
    fingerprint: metadataKey.publicKey.getFingerprint().toUpperCase(),
    armored_key: metadataKey.publicKey.armor(),
    ...stamps,
    created_by: ada.id,
    modified_by: ada.id,
  })
  const bobsMetadataCopy = randomUUID()
  for (const [id, holder, text] of [
    [bobsMetadataCopy, bob, 'bob-copy'],
    [randomUUID(), dave, 'dave-copy'],
  ] as const)
    await db.insert('metadata_private_keys', {
      id,
      metadata_key_id: metadataKeyId,
      user_id: holder.id,
      data: await encryptTo(holder.key, text),
      ...stamps,
    })
  await db.insert('metadata_private_keys', {
    id: randomUUID(),
    metadata_key_id: metadataKeyId,
    user_id: null,
    data: await encryptTo(bob.key, 'server-copy'),
    ...stamps,
  })
  await db.insert('metadata_session_keys', {
    id: randomUUID(),
    user_id: bob.id,
    data: await encryptTo(bob.key, '[]'),
    ...stamps,
  })
  const sharedV5 = await resource(ada, {
    metadata: await encryptTo(
      { publicKey: metadataKey.publicKey } as TestUserKey,
      '{"object_type":"PASSBOLT_RESOURCE_METADATA","name":"CI token"}',
    ),
    metadata_key_id: metadataKeyId,
    metadata_key_type: 'shared_key',
    resource_type_id: V5_TYPE,
  })
  await permission('Resource', sharedV5, 'Group', team, 7)
  await secret(ada, sharedV5, '{"object_type":"PASSBOLT_SECRET_DATA","password":"ci"}')
  await secret(bob, sharedV5, '{"object_type":"PASSBOLT_SECRET_DATA","password":"ci"}')
  await place(ada, 'Resource', sharedV5, null)
  await place(bob, 'Resource', sharedV5, null)
  // Ada's own, once shared with Dave, who was deleted since.
  const adasOwn = await resource(ada, { name: 'Server root', resource_type_id: V4_TYPE })
  await secret(ada, adasOwn, '{"password":"ada-root","description":"prod"}')
  await permission('Resource', adasOwn, 'User', dave.id, 1)
  // A secret for Carol on an item she has no permission on: a broken row.
  const stray = await secret(carol, shared, '{"password":"should-not-move","description":""}')
  // An earlier revision passbolt 5.7+ keeps.
  const revision = randomUUID()
  await db.insert('secrets', {
    id: revision,
    user_id: ada.id,
    resource_id: adasOwn,
    data: await encryptTo(ada.key, 'old'),
    deleted: MODIFIED,
    ...stamps,
  })

  // Ada's folder holds the shared item in her tree; Bob, who cannot see the folder, has it at
  // his root.
  const folder = randomUUID()
  await db.insert('folders', {
    id: folder,
    name: 'Ops',
    ...stamps,
    created_by: ada.id,
    modified_by: ada.id,
  })
  await permission('Folder', folder, 'User', ada.id, 15)
  await place(ada, 'Folder', folder, null)
  await place(ada, 'Resource', shared, folder)
  await place(ada, 'Resource', adasOwn, null)
  await place(bob, 'Resource', shared, null)
  await place(bob, 'Resource', bobsOwn, null)
  await db.insert('favorites', {
    id: randomUUID(),
    user_id: bob.id,
    foreign_key: shared,
    foreign_model: 'Resource',
    ...stamps,
  })

  const { gpgDir, serverFingerprint } = await passboltServerKey(t)
  return {
    db,
    gpgDir,
    serverFingerprint,
    roles,
    people: { ada, bob, carol, dave },
    ids: {
      shared,
      bobsOwn,
      adasOwn,
      sharedV5,
      folder,
      stray,
      revision,
      team,
      metadataKeyId,
      bobsMetadataCopy,
    },
  }
}

/** A passbolt `config/gpg` folder holding a new server key pair. */
export const passboltServerKey = async (t: ExecutionContext) => {
  const { privateKey, publicKey } = await openpgp.generateKey({
    type: 'ecc',
    curve: 'curve25519Legacy',
    userIDs: [{ name: 'Passbolt server', email: 'server@passbolt.example.com' }],
    format: 'armored',
  })
  const gpgDir = tempDir(t)
  writeFileSync(join(gpgDir, 'serverkey_private.asc'), privateKey)
  writeFileSync(join(gpgDir, 'serverkey.asc'), publicKey)
  const serverFingerprint = (await openpgp.readKey({ armoredKey: publicKey }))
    .getFingerprint()
    .toUpperCase()
  return { gpgDir, serverFingerprint }
}

/** Keyward on the migrated database with the server key the move installed; `signIn` by GPGAuth. */
export const startMigratedApi = async (
  t: ExecutionContext,
  target: Awaited<ReturnType<typeof migratedTarget>>,
) => {
  const api = await startTestApi(t, {
    databaseUrl: target.url,
    env: {
      KEYWARD_SERVER_KEY_PRIVATE: target.serverKey.privatePath,
      KEYWARD_SERVER_KEY_PUBLIC: target.serverKey.publicPath,
    },
  })
  const signIn = async (person: Person) => {
    const client = new TestClient(api.url)
    const { stage2 } = await gpgAuthLogin(client, person.key)
    t.is(stage2.json.header.status, 'success')
    return client
  }
  return { api, signIn }
}

export const migratedTarget = async (t: ExecutionContext) => {
  const url = await createTestDatabase(t)
  const orm = await createOrm({
    url,
    entities: plugins.flatMap((plugin) => plugin.entities ?? []),
    migrations: allMigrations(plugins),
  })
  t.teardown(() => orm.close())
  await migrate(orm)
  const keyDir = tempDir(t)
  const serverKey = {
    privatePath: join(keyDir, 'gpg', 'serverkey_private.asc'),
    publicPath: join(keyDir, 'gpg', 'serverkey.asc'),
  }
  return { url, orm, serverKey }
}
