// The development guide's resource scripts (each `.mjs` code block of
// content/docs/development/) run as they are printed, with Node.js, against a fresh server, and
// leave the server as their page says: created, shared, re-encrypted or deleted.
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import test, { type ExecutionContext } from 'ava'
import * as openpgp from 'openpgp'
import { startTestApi, type TestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { createMetadataKey, generateMetadataKey, privateKeyCopy } from '../helpers/metadata.ts'
import {
  createPassword,
  decryptAs,
  encryptFor,
  type Member,
  makeGroup,
  secretInvariantViolations,
  sqlOf,
  team,
  V5_DEFAULT,
} from '../helpers/vault.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const guide = join(root, 'content/docs/development')

/** Every ```js title="name.mjs" block of the development guide, by name. */
const examples = new Map(
  readdirSync(guide, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .flatMap((name) =>
      [
        ...readFileSync(join(guide, name), 'utf8').matchAll(
          /^```js title="([\w-]+\.mjs)"\n([\s\S]*?)^```$/gm,
        ),
      ].map((match) => [match[1], match[2]] as const),
    ),
)

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/** A fresh server on the address the scripts sign in to, and a team whose first member runs them. */
const setup = async (
  t: ExecutionContext,
  names = ['ada', 'bob', 'carol', 'dave'],
  admin?: string,
) => {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const api = await startTestApi(t, {
    env: { KEYWARD_PORT: String(port), KEYWARD_APP_URL: `${url}/` },
  })
  const members = await team(api, names, admin)
  return { api, members }
}

/**
 * Runs one script as `user`, in a folder holding every script of the guide (they import
 * `session.mjs`) that resolves `openpgp` from the repository, as an install would.
 */
const run = async (
  t: ExecutionContext,
  api: TestApi,
  user: Member,
  name: string,
  args: string[] = [],
  env: Record<string, string> = {},
) => {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-devguide-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  const passphrase = 'correct horse battery staple'
  const encrypted = await openpgp.encryptKey({ privateKey: user.privateKey, passphrase })
  writeFileSync(join(dir, 'key.asc'), encrypted.armor())
  for (const [file, source] of examples) writeFileSync(join(dir, file), source)
  const { stdout } = await promisify(execFile)(process.execPath, [join(dir, name), ...args], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      KEYWARD_URL: api.url,
      KEYWARD_KEY_FILE: join(dir, 'key.asc'),
      KEYWARD_PASSPHRASE: passphrase,
      KEYWARD_USER_ID: user.id,
      ...env,
    },
    timeout: 60_000,
  })
  return stdout
}

/** The resource as `member` reads it through the API, checked as the extension checks it. */
const readAs = async (t: ExecutionContext, member: Member, id: string) => {
  const response = await member.client.fetch(
    `/resources/${id}.json?contain[secret]=1&contain[permissions]=1`,
  )
  t.is(response.status, 200, response.text)
  t.deepEqual(await clientValidation('ResourceEntity', response.json.body), {})
  return response.json.body
}

test('the guide holds the session module and one script per walk-through', (t) => {
  t.deepEqual(
    [...examples.keys()].sort(),
    [
      'create-resource.mjs',
      'delete-resource.mjs',
      'session.mjs',
      'share-resource.mjs',
      'shared-metadata.mjs',
      'update-resource.mjs',
      'view-resources.mjs',
    ].sort(),
  )
})

test('view-resources.mjs lists what the user reads (v4 and personal v5) and decrypts one password', async (t) => {
  const { api, members } = await setup(t, ['ada', 'bob'])
  const [ada, bob] = members
  const mine = await createPassword(ada, 'bank', 'pw-bank')
  const theirs = await createPassword(bob, 'shop', 'pw-shop')
  await createPassword(bob, 'hidden')
  const share = await bob.client.json(`/share/resource/${theirs.id}.json`, 'PUT', {
    permissions: [{ aro: 'User', aro_foreign_key: ada.id, type: 1 }],
    secrets: [{ user_id: ada.id, data: await encryptFor('{"password":"pw-shop"}', [ada], bob) }],
  })
  t.is(share.status, 200, share.text)
  await sqlOf(api)(
    `insert into organization_settings (id, property, property_id, value) values (gen_random_uuid(), 'metadataTypes', gen_random_uuid(), $1)`,
    [JSON.stringify({ allow_creation_of_v5_resources: true })],
  )
  const personal = await ada.client.json('/resources.json', 'POST', {
    resource_type_id: V5_DEFAULT,
    metadata_key_type: 'user_key',
    metadata: await encryptFor(
      JSON.stringify({
        object_type: 'PASSBOLT_RESOURCE_METADATA',
        resource_type_id: V5_DEFAULT,
        name: 'diary',
        username: 'ada',
        uris: [],
      }),
      [ada],
      ada,
    ),
    secrets: [
      {
        data: await encryptFor('{"object_type":"PASSBOLT_SECRET_DATA","password":"pw-v5"}', [ada]),
      },
    ],
  })
  t.is(personal.status, 200, personal.text)

  const listed = (await run(t, api, ada, 'view-resources.mjs')).split('\n').filter(Boolean).sort()
  t.deepEqual(
    listed,
    [
      `${mine.id} bank (bank@example.com, password-and-description, owner)`,
      `${theirs.id} shop (shop@example.com, password-and-description, read)`,
      `${personal.json.body.id} diary (ada, v5-default, owner)`,
    ].sort(),
  )
  const shown = await run(t, api, ada, 'view-resources.mjs', [theirs.id])
  t.true(shown.endsWith('password of shop: pw-shop\n'), shown)
  const v5 = await run(t, api, ada, 'view-resources.mjs', [personal.json.body.id])
  t.true(v5.endsWith('password of diary: pw-v5\n'), v5)
})

/** Stores the organisation's metadata types settings, as an administrator would. */
const storeMetadataTypes = (api: TestApi, settings: Record<string, unknown>) =>
  sqlOf(api)(
    `insert into organization_settings (id, property, property_id, value) values (gen_random_uuid(), 'metadataTypes', gen_random_uuid(), $1)`,
    [JSON.stringify(settings)],
  )

const createArgs = ['Bank', 'ada@example.com', 'https://bank.example.com']

test('create-resource.mjs creates a v4 resource owned by the user, the secret for them alone', async (t) => {
  const { api, members } = await setup(t, ['ada', 'bob'])
  const [ada] = members
  const stdout = await run(t, api, ada, 'create-resource.mjs', createArgs, {
    RESOURCE_PASSWORD: 'correct horse',
  })
  const id = stdout.trim()
  const resource = await readAs(t, ada, id)
  t.like(resource, {
    name: 'Bank',
    username: 'ada@example.com',
    uri: 'https://bank.example.com',
    description: null,
    resource_type_id: 'a28a04cd-6f53-518a-967c-9963bf9cec51',
    deleted: false,
  })
  t.deepEqual(
    resource.permissions.map((p: { aro_foreign_key: string; type: number }) => [
      p.aro_foreign_key,
      p.type,
    ]),
    [[ada.id, 15]],
  )
  t.deepEqual(JSON.parse(await decryptAs(resource.secrets[0].data, ada)), {
    password: 'correct horse',
    description: 'Created by create-resource.mjs',
  })
  t.deepEqual(await secretInvariantViolations(api), [])
})

test('create-resource.mjs creates a personal v5 resource when the organisation creates v5', async (t) => {
  const { api, members } = await setup(t, ['ada'])
  const [ada] = members
  await storeMetadataTypes(api, {
    default_resource_types: 'v5',
    allow_creation_of_v5_resources: true,
  })
  const id = (
    await run(t, api, ada, 'create-resource.mjs', createArgs, { RESOURCE_PASSWORD: 'pw5' })
  ).trim()
  const resource = await readAs(t, ada, id)
  t.like(resource, { metadata_key_type: 'user_key', resource_type_id: V5_DEFAULT })
  t.false('name' in resource)
  const [key] = await sqlOf(api)('select id from gpgkeys where user_id = $1', [ada.id])
  t.is(resource.metadata_key_id, key.id)
  t.like(JSON.parse(await decryptAs(resource.metadata, ada)), {
    object_type: 'PASSBOLT_RESOURCE_METADATA',
    resource_type_id: V5_DEFAULT,
    name: 'Bank',
    uris: ['https://bank.example.com'],
  })
  t.deepEqual(JSON.parse(await decryptAs(resource.secrets[0].data, ada)), {
    object_type: 'PASSBOLT_SECRET_DATA',
    password: 'pw5',
  })
})

test('create-resource.mjs stops with the server’s refusal when the organisation allows neither', async (t) => {
  const { api, members } = await setup(t, ['ada'])
  await storeMetadataTypes(api, { allow_creation_of_v4_resources: false })
  const error = await t.throwsAsync(
    run(t, api, members[0], 'create-resource.mjs', createArgs, { RESOURCE_PASSWORD: 'x' }),
  )
  t.regex(
    (error as Error & { stderr: string }).stderr,
    /ApiError: 400 Resource creation with cleartext metadata not allowed\./,
  )
  const [{ n }] = await sqlOf(api)('select count(*)::int as n from resources')
  t.is(n, 0)
})

/** Each holder's permission level on the resource, as `member` reads them. */
const levelsOf = (resource: { permissions: { aro_foreign_key: string; type: number }[] }) =>
  Object.fromEntries(resource.permissions.map((p) => [p.aro_foreign_key, p.type]))

test('share-resource.mjs shares with a user and a group: every user who gains access can decrypt', async (t) => {
  const { api, members } = await setup(t)
  const [ada, bob, carol, dave] = members
  const resource = await createPassword(ada, 'bank', 'pw-bank')
  // Ada is in the group too: she keeps her secret, and only the others gain access.
  const group = await makeGroup(api, 'Accounting', [carol, dave, ada])

  const stdout = await run(t, api, ada, 'share-resource.mjs', [
    resource.id,
    'bob@keyward.test=update',
    'Accounting',
  ])
  t.is(stdout, 'shared: 3 gained access, 0 lost it\n')
  t.deepEqual(levelsOf(await readAs(t, ada, resource.id)), {
    [ada.id]: 15,
    [bob.id]: 7,
    [group]: 1,
  })
  for (const member of [ada, bob, carol, dave]) {
    const secret = await member.client.fetch(`/secrets/resource/${resource.id}.json`)
    t.is(secret.status, 200, member.username)
    t.deepEqual(await clientValidation('SecretEntity', secret.json.body), {})
    t.deepEqual(JSON.parse(await decryptAs(secret.json.body.data, member)), {
      password: 'pw-bank',
      description: 'notes',
    })
  }
  t.deepEqual(await secretInvariantViolations(api), [])

  // Removing a user and raising the group: one change of each shape but adding.
  const again = await run(t, api, ada, 'share-resource.mjs', [
    resource.id,
    'bob@keyward.test=none',
    'Accounting=owner',
  ])
  t.is(again, 'shared: 0 gained access, 1 lost it\n')
  t.deepEqual(levelsOf(await readAs(t, ada, resource.id)), { [ada.id]: 15, [group]: 15 })
  t.is((await bob.client.fetch(`/secrets/resource/${resource.id}.json`)).status, 404)
  t.deepEqual(await secretInvariantViolations(api), [])
})

test('share-resource.mjs stops with the server’s refusal for a reader who is not an owner', async (t) => {
  const { api, members } = await setup(t, ['ada', 'bob', 'carol'])
  const [ada, bob] = members
  const resource = await createPassword(bob, 'shop')
  const share = await bob.client.json(`/share/resource/${resource.id}.json`, 'PUT', {
    permissions: [{ aro: 'User', aro_foreign_key: ada.id, type: 7 }],
    secrets: [{ user_id: ada.id, data: await encryptFor('{"password":"x"}', [ada], bob) }],
  })
  t.is(share.status, 200, share.text)
  const error = await t.throwsAsync(
    run(t, api, ada, 'share-resource.mjs', [resource.id, 'carol@keyward.test']),
  )
  t.regex(
    (error as Error & { stderr: string }).stderr,
    /ApiError: 403 You are not authorized to share this resource\./,
  )
  t.deepEqual(await secretInvariantViolations(api), [])
})

/** Ada's resource, read by Bob and updated by the group of Carol and Dave. */
const sharedResource = async (api: TestApi, members: Member[]) => {
  const [ada, bob, carol, dave] = members
  const resource = await createPassword(ada, 'bank', 'pw-bank')
  const group = await makeGroup(api, 'Accounting', [carol, dave])
  const text = JSON.stringify({ password: 'pw-bank', description: 'notes' })
  const share = await ada.client.json(`/share/resource/${resource.id}.json`, 'PUT', {
    permissions: [
      { aro: 'User', aro_foreign_key: bob.id, type: 1 },
      { aro: 'Group', aro_foreign_key: group, type: 7 },
    ],
    secrets: await Promise.all(
      [bob, carol, dave].map(async (m) => ({
        user_id: m.id,
        data: await encryptFor(text, [m], ada),
      })),
    ),
  })
  if (share.status !== 200) throw new Error(share.text)
  return resource.id as string
}

test('update-resource.mjs, run by a group member with update, re-encrypts the secret for every reader', async (t) => {
  const { api, members } = await setup(t)
  const [ada, bob, carol, dave] = members
  const id = await sharedResource(api, members)

  const stdout = await run(t, api, carol, 'update-resource.mjs', [id, 'Bank (new)'], {
    RESOURCE_PASSWORD: 'pw-new',
  })
  t.is(stdout, 'updated for 4 readers\n')
  for (const member of [ada, bob, carol, dave]) {
    const resource = await readAs(t, member, id)
    t.like(resource, { name: 'Bank (new)', username: 'bank@example.com', modified_by: carol.id })
    t.deepEqual(JSON.parse(await decryptAs(resource.secrets[0].data, member)), {
      password: 'pw-new',
      description: 'notes',
    })
  }
  t.deepEqual(await secretInvariantViolations(api), [])
})

test('update-resource.mjs, run by a reader, is refused and changes nothing', async (t) => {
  const { api, members } = await setup(t)
  const [ada, bob] = members
  const id = await sharedResource(api, members)
  const error = await t.throwsAsync(
    run(t, api, bob, 'update-resource.mjs', [id], { RESOURCE_PASSWORD: 'pw-new' }),
  )
  t.regex(
    (error as Error & { stderr: string }).stderr,
    /ApiError: 403 You are not allowed to update this resource\./,
  )
  const resource = await readAs(t, ada, id)
  t.is(JSON.parse(await decryptAs(resource.secrets[0].data, ada)).password, 'pw-bank')
})

test('delete-resource.mjs soft-deletes the resource for everyone; a reader may not', async (t) => {
  const { api, members } = await setup(t)
  const [ada, bob, carol] = members
  const id = await sharedResource(api, members)
  const refused = await t.throwsAsync(run(t, api, bob, 'delete-resource.mjs', [id]))
  t.regex(
    (refused as Error & { stderr: string }).stderr,
    /ApiError: 403 You do not have the permission to delete this resource\./,
  )

  t.is(await run(t, api, carol, 'delete-resource.mjs', [id]), `deleted ${id}\n`)
  const sql = sqlOf(api)
  t.deepEqual(await sql('select deleted, username, uri from resources where id = $1', [id]), [
    { deleted: true, username: null, uri: null },
  ])
  for (const table of ['secrets', 'permissions'])
    t.deepEqual(
      await sql(
        `select count(*)::int as n from ${table} where ${table === 'secrets' ? 'resource_id' : 'aco_foreign_key'} = $1`,
        [id],
      ),
      [{ n: 0 }],
      table,
    )
  for (const member of [ada, bob, carol])
    t.is((await member.client.fetch(`/resources/${id}.json`)).status, 404)
})

test('shared-metadata.mjs creates a resource whose metadata only the metadata key opens, and reads it back', async (t) => {
  const { api, members } = await setup(t, ['ada', 'bob'], 'ada')
  const [ada, bob] = members
  const key = await generateMetadataKey()
  const keyId = await createMetadataKey(api, ada, key)
  await storeMetadataTypes(api, {
    default_resource_types: 'v5',
    allow_creation_of_v5_resources: true,
  })
  const id = (
    await run(t, api, ada, 'shared-metadata.mjs', ['create', ...createArgs], {
      RESOURCE_PASSWORD: 'pw-shared',
    })
  ).trim()
  const resource = await readAs(t, ada, id)
  t.like(resource, {
    metadata_key_type: 'shared_key',
    metadata_key_id: keyId,
    resource_type_id: V5_DEFAULT,
  })
  t.false('name' in resource)
  t.like(JSON.parse(await decryptAs(resource.metadata, key)), {
    object_type: 'PASSBOLT_RESOURCE_METADATA',
    name: 'Bank',
    username: 'ada@example.com',
    uris: ['https://bank.example.com'],
  })
  // The metadata is for the metadata key alone: the author's own key cannot open it.
  await t.throwsAsync(() => decryptAs(resource.metadata, ada))
  const read = await run(t, api, ada, 'shared-metadata.mjs', ['read', id])
  t.is(read, 'Bank (ada@example.com, https://bank.example.com): pw-shared\n')
  // A user without a copy of the metadata key is told so, and nothing is created.
  const refused = await t.throwsAsync(() =>
    run(t, api, bob, 'shared-metadata.mjs', ['create', ...createArgs], { RESOURCE_PASSWORD: 'x' }),
  )
  t.regex(String((refused as { stderr?: string })?.stderr), /no metadata key shared with this user/)
  const [{ count }] = await sqlOf(api)('select count(*)::int as count from resources')
  t.is(count, 1)
  // Once an administrator shares the key with them, they read the same resource.
  const share = await ada.client.json(`/share/resource/${id}.json`, 'PUT', {
    permissions: [{ aro: 'User', aro_foreign_key: bob.id, type: 1 }],
    secrets: [
      {
        user_id: bob.id,
        data: await encryptFor(
          '{"object_type":"PASSBOLT_SECRET_DATA","password":"pw-shared"}',
          [bob],
          ada,
        ),
      },
    ],
  })
  t.is(share.status, 200, share.text)
  const given = await ada.client.json(`/metadata/keys/${keyId}/private.json`, 'POST', {
    user_id: bob.id,
    data: await privateKeyCopy(key, [bob], ada),
  })
  t.is(given.status, 200, given.text)
  t.is(
    await run(t, api, bob, 'shared-metadata.mjs', ['read', id]),
    'Bank (ada@example.com, https://bank.example.com): pw-shared\n',
  )
})
