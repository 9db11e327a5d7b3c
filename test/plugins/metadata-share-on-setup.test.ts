// A user who completes their setup receives the metadata keys from the server, as passbolt 5
// does outside zero-knowledge mode: the server decrypts its own copy (checking who signed it
// and that it is the metadata key's private half) and encrypts it to the new user's key. In
// zero-knowledge mode, or when the server's copy cannot be trusted, the key stays missing for
// an administrator to share, and the setup still succeeds. Real HTTP, PostgreSQL and OpenPGP.
import test, { type ExecutionContext } from 'ava'
import * as openpgp from 'openpgp'
import { registerUser } from '../../plugins/setup/index.ts'
import { startTestApi, type TestApi } from '../helpers/api.ts'
import { generateUserKey, gpgAuthLogin, TestClient } from '../helpers/client.ts'
import {
  createMetadataKey,
  generateMetadataKey,
  type MetadataKey,
  privateKeyText,
  serverRecipient,
} from '../helpers/metadata.ts'
import { encryptFor, type Member, sqlOf, team } from '../helpers/vault.ts'

/** Registers a user and completes their setup over HTTP, as the extension does. */
const setUpOverHttp = async (api: TestApi, username: string) => {
  const { user, url } = await registerUser(api.app.orm.em.fork(), api.app, {
    username,
    firstName: 'New',
    lastName: 'User',
    role: 'user',
  })
  const token = url.split('/').at(-1)!
  const key = await generateUserKey(username)
  const completed = await new TestClient(api.url).json(`/setup/complete/${user.id}.json`, 'POST', {
    authenticationtoken: { token },
    gpgkey: { armored_key: key.armoredPublicKey },
  })
  return { ...key, id: user.id, completed }
}

const copiesOf = (api: TestApi, userId: string) =>
  sqlOf(api)(
    `select metadata_key_id, data, created_by, modified_by from metadata_private_keys
     where user_id = $1 order by created`,
    [userId],
  )

const missingFor = async (admin: Member, userId: string) => {
  const users = (await admin.client.fetch('/users.json?contain[missing_metadata_key_ids]=1')).json
    .body as { id: string; missing_metadata_key_ids: string[] }[]
  return users.find((user) => user.id === userId)?.missing_metadata_key_ids
}

const setup = async (t: ExecutionContext) => {
  const api = await startTestApi(t)
  const [admin] = await team(api, ['admin'], 'admin')
  const key = await generateMetadataKey()
  const keyId = await createMetadataKey(api, admin, key)
  return { api, admin, key, keyId }
}

test('completing a setup gives the new user every metadata key, encrypted to them and signed by the server', async (t) => {
  const { api, admin, key, keyId } = await setup(t)
  // A second, newer key: both are shared, in the order they were created.
  const newer = await generateMetadataKey()
  await sqlOf(api)('update metadata_keys set expired = now()')
  const newerId = await createMetadataKey(api, admin, newer)
  const grace = await setUpOverHttp(api, 'grace@keyward.test')
  t.is(grace.completed.status, 200, grace.completed.text)
  const copies = await copiesOf(api, grace.id)
  t.deepEqual(
    copies.map((copy) => copy.metadata_key_id),
    [keyId, newerId],
  )
  for (const [copy, metadataKey] of [
    [copies[0], key],
    [copies[1], newer],
  ] as const) {
    t.is(copy.created_by, null, 'written by the server')
    t.is(copy.modified_by, null)
    const { data, signatures } = await openpgp.decrypt({
      message: await openpgp.readMessage({ armoredMessage: copy.data }),
      decryptionKeys: grace.privateKey,
      verificationKeys: api.app.serverKey.publicKey,
      expectSigned: true,
    })
    t.true(await signatures[0].verified, 'signed by the server key')
    t.deepEqual(JSON.parse(String(data)), JSON.parse(privateKeyText(metadataKey)))
  }
  t.deepEqual(await missingFor(admin, grace.id), [])
  // She lists her copies as the extension does, and re-signs one once (trust on first use).
  const client = new TestClient(api.url)
  t.is((await gpgAuthLogin(client, grace)).stage2.status, 200)
  const listed = (await client.fetch('/metadata/keys.json?contain[metadata_private_keys]=1')).json
    .body as { id: string; metadata_private_keys: { id: string; user_id: string }[] }[]
  const own = listed.flatMap((row) => row.metadata_private_keys)
  t.deepEqual(
    own.map((copy) => copy.user_id),
    [grace.id, grace.id],
  )
  const resigned = await client.json(`/metadata/keys/private/${own[0].id}.json`, 'PUT', {
    data: await encryptFor(privateKeyText(key), [grace], grace),
  })
  t.is(resigned.status, 200, resigned.text)
  t.is(resigned.json.body.modified_by, grace.id)
})

test('in zero-knowledge mode the server holds no copy: the key stays missing for an administrator to share', async (t) => {
  const { api, admin, keyId } = await setup(t)
  const settings = await admin.client.json('/metadata/keys/settings.json', 'POST', {
    allow_usage_of_personal_keys: true,
    zero_knowledge_key_share: true,
  })
  t.is(settings.status, 200, settings.text)
  const grace = await setUpOverHttp(api, 'grace@keyward.test')
  t.is(grace.completed.status, 200, grace.completed.text)
  t.deepEqual(await copiesOf(api, grace.id), [])
  t.deepEqual(await missingFor(admin, grace.id), [keyId])
})

test('a server copy that cannot be trusted is not passed on; the setup stands and the failure is logged', async (t) => {
  const { api, admin, key, keyId } = await setup(t)
  const mallory = await generateUserKey('mallory@keyward.test')
  const other = await generateMetadataKey()
  const forServer = (text: string, signer: { privateKey: openpgp.PrivateKey }) =>
    encryptFor(text, [serverRecipient(api)], signer)
  const cases: [string, () => Promise<string>][] = [
    ['signed by someone other than its writer', () => forServer(privateKeyText(key), mallory)],
    ['another key’s private half', () => forServer(privateKeyText(other as MetadataKey), admin)],
    ['not a private key object', () => forServer(JSON.stringify({ object_type: 'X' }), admin)],
    ['not JSON', () => forServer('hello', admin)],
    ['unsigned', () => encryptFor(privateKeyText(key), [serverRecipient(api)]) as Promise<string>],
  ]
  for (const [index, [label, data]] of cases.entries()) {
    await sqlOf(api)('update metadata_private_keys set data = $1 where user_id is null', [
      await data(),
    ])
    const before = api.logs.length
    const user = await setUpOverHttp(api, `user${index}@keyward.test`)
    t.is(user.completed.status, 200, `${label}: ${user.completed.text}`)
    t.deepEqual(await copiesOf(api, user.id), [], label)
    t.deepEqual(await missingFor(admin, user.id), [keyId], label)
    const logged = api.logs
      .slice(before)
      .find((line) => String(line.msg).includes('could not share a metadata key'))
    t.like(logged, { userId: user.id, metadataKeyId: keyId }, label)
    t.false(JSON.stringify(api.logs.slice(before)).includes('PRIVATE KEY'), 'no key in the logs')
  }
})
