// Account setup and recovery as the extension drives them from the emailed links, with mail
// received by a real SMTP server on loopback.
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import test from 'ava'
import * as openpgp from 'openpgp'
import { registerUser } from '../../plugins/setup/index.ts'
import { FIXTURE_KEYS_ENV, startTestApi, type TestApi } from '../helpers/api.ts'
import { generateUserKey, gpgAuthLogin, TestClient } from '../helpers/client.ts'
import { createTestDatabase, query } from '../helpers/database.ts'
import { decodeQuotedPrintable, startSmtp } from '../helpers/smtp.ts'

const bin = fileURLToPath(new URL('../../bin/api.js', import.meta.url))

/** Runs the CLI without blocking this process, which hosts the SMTP server. */
const runApi = async (args: string[], env: NodeJS.ProcessEnv) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], {
      env,
      encoding: 'utf8',
    })
    return { status: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { status: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

const register = async (server: TestApi, username = 'grace@keyward.test') => {
  const { user, url } = await registerUser(server.app.orm.em.fork(), server.app, {
    username,
    firstName: 'Grace',
    lastName: 'Hopper',
    role: 'user',
  })
  // Outside a request nothing waits for the mail queue: the test does.
  await server.app.mailer.deliverDue()
  return { userId: user.id, token: url.split('/').at(-1)!, url }
}

const sql = (server: TestApi, text: string, values: unknown[] = []) =>
  query(server.app.database.url, text, values)

const complete = (
  client: TestClient,
  userId: string,
  token: string,
  armored: string,
  kind: 'setup' | 'setup/recover' = 'setup',
) =>
  client.json(`/${kind}/complete/${userId}.json`, 'POST', {
    authenticationtoken: { token },
    gpgkey: { armored_key: armored },
  })

test('api user create registers an inactive user, mails the link and prints it', async (t) => {
  const smtp = await startSmtp(t)
  const env = {
    ...process.env,
    DATABASE_URL: await createTestDatabase(t),
    KEYWARD_DATA_DIR: mkdtempSync(join(tmpdir(), 'keyward-cli-')),
    ...FIXTURE_KEYS_ENV,
    KEYWARD_SMTP_URL: smtp.url,
    KEYWARD_APP_URL: 'https://vault.keyward.test/',
  }
  const run = await runApi(
    [
      'user',
      'create',
      '--username',
      'Admin@Keyward.test',
      '--first-name',
      'Ada',
      '--last-name',
      'Admin',
      '--admin',
    ],
    env,
  )
  t.is(run.status, 0, run.stderr)
  const url = run.stdout.trim()
  t.regex(url, /^https:\/\/vault\.keyward\.test\/setup\/install\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/)
  t.is(smtp.received.length, 1)
  t.deepEqual(smtp.received[0].to, ['admin@keyward.test'])
  t.true(smtp.received[0].text.includes(url))
  const again = await runApi(
    ['user', 'create', '--username', 'admin@keyward.test', '--first-name', 'A', '--last-name', 'B'],
    env,
  )
  t.is(again.status, 1)
  t.is(again.stderr.trim(), '--username: the username is already in use')
  const bad = await runApi(
    ['user', 'create', '--username', 'nope', '--first-name', 'A', '--last-name', 'B'],
    env,
  )
  t.is(bad.status, 1)
  t.is(bad.stderr.trim(), '--username: Invalid email address')
})

test('setup: start checks the link, complete stores the key and activates the account, once', async (t) => {
  const api = await startTestApi(t)
  const { userId, token } = await register(api)
  const client = new TestClient(api.url)
  const started = await client.fetch(`/setup/start/${userId}/${token}.json`)
  t.is(started.status, 200)
  t.is(started.json.body.user.username, 'grace@keyward.test')
  t.is(started.json.body.user.active, false)
  t.is(started.json.body.user.role.name, 'user')
  const key = await generateUserKey('grace@keyward.test')
  const done = await complete(client, userId, token, key.armoredPublicKey)
  t.is(done.status, 200, JSON.stringify(done.json))
  t.is(done.json.header.message, 'The setup was completed successfully.')
  const [row] = await sql(api, 'select active from users where id = $1', [userId])
  t.true(row.active)
  const reuse = await complete(client, userId, token, key.armoredPublicKey)
  t.is(reuse.status, 400)
  t.is((await client.fetch(`/setup/start/${userId}/${token}.json`)).status, 400)
  const { stage2 } = await gpgAuthLogin(new TestClient(api.url), { ...key })
  t.is(stage2.status, 200, 'the new account can sign in')
})

test('key rules: weak, foreign, private, expired, revoked or duplicate keys are refused with their rule', async (t) => {
  const api = await startTestApi(t)
  const client = new TestClient(api.url)
  const { userId, token } = await register(api)
  const rsa2048 = await generateUserKey('grace@keyward.test', 'rsa', 2048)
  const foreign = await generateUserKey('someone@keyward.test')
  const expiring = await openpgp.generateKey({
    type: 'ecc',
    curve: 'curve25519Legacy',
    userIDs: [{ email: 'grace@keyward.test' }],
    keyExpirationTime: 1,
    format: 'object',
  })
  const revoked = await openpgp.generateKey({
    type: 'ecc',
    curve: 'curve25519Legacy',
    userIDs: [{ email: 'grace@keyward.test' }],
    format: 'object',
  })
  const { publicKey: revokedPublic } = await openpgp.revokeKey({
    key: revoked.privateKey,
    format: 'object',
  })
  await new Promise((resolve) => setTimeout(resolve, 1500))
  const cases: [string, string][] = [
    [rsa2048.armoredPublicKey, 'isStrongEnough'],
    [foreign.armoredPublicKey, 'hasUserEmail'],
    [revoked.privateKey.armor(), 'isParsableArmoredPublicKey'],
    [expiring.publicKey.armor(), 'isNotExpired'],
    [revokedPublic.armor(), 'isNotRevoked'],
    [
      '-----BEGIN PGP PUBLIC KEY BLOCK-----\ngarbage\n-----END PGP PUBLIC KEY BLOCK-----',
      'isParsableArmoredPublicKey',
    ],
  ]
  for (const [armored, rule] of cases) {
    const response = await complete(client, userId, token, armored)
    t.is(response.status, 400, rule)
    t.is(response.json.header.message, 'The OpenPGP key data is not valid.')
    t.deepEqual(Object.keys(response.json.body.gpgkey.armored_key), [rule])
  }
  const taken = await register(api, 'linus@keyward.test')
  const linusKey = await generateUserKey('linus@keyward.test')
  t.is((await complete(client, taken.userId, taken.token, linusKey.armoredPublicKey)).status, 200)
  const other = await register(api, 'other@keyward.test')
  const duplicate = await complete(client, other.userId, other.token, linusKey.armoredPublicKey)
  t.is(duplicate.status, 400)
  const [{ active }] = await sql(api, 'select active from users where id = $1', [userId])
  t.false(active, 'refused keys change nothing')
})

test('setup links: expired, foreign or malformed tokens and ids are refused; signed-in users may not complete', async (t) => {
  const api = await startTestApi(t)
  const client = new TestClient(api.url)
  const first = await register(api)
  const second = await register(api, 'linus@keyward.test')
  t.is(
    (await client.fetch(`/setup/start/${first.userId}/${second.token}.json`)).status,
    400,
    "another user's token",
  )
  const malformed = await client.fetch(`/setup/start/not-a-uuid/${first.token}.json`)
  t.deepEqual(
    [malformed.status, malformed.json.body.userId.uuid],
    [400, 'The user identifier should be a valid UUID.'],
  )
  await sql(
    api,
    "update authentication_tokens set created = now() - interval '11 days' where user_id = $1",
    [first.userId],
  )
  const expired = await client.fetch(`/setup/start/${first.userId}/${first.token}.json`)
  t.deepEqual(
    [expired.status, expired.json.header.message],
    [400, 'The authentication token is not valid or has expired.'],
  )
  const key = await generateUserKey('linus@keyward.test')
  const signedIn = await complete(client, second.userId, second.token, key.armoredPublicKey)
  t.is(signedIn.status, 200)
  await gpgAuthLogin(client, key)
  const third = await register(api, 'third@keyward.test')
  const thirdKey = await generateUserKey('third@keyward.test')
  const refused = await complete(client, third.userId, third.token, thirdKey.armoredPublicKey)
  t.deepEqual(
    [refused.status, refused.json.header.message],
    [403, 'Only guests are allowed to complete setup.'],
  )
})

test('recovery: the mailed link checks the key against the account key; abort ends the link', async (t) => {
  const smtp = await startSmtp(t)
  const api = await startTestApi(t, { env: { KEYWARD_SMTP_URL: smtp.url } })
  const client = new TestClient(api.url)
  const { userId, token } = await register(api)
  const key = await generateUserKey('grace@keyward.test')
  await complete(client, userId, token, key.armoredPublicKey)
  await client.fetch('/settings.json')
  const asked = await client.json('/users/recover.json', 'POST', { username: 'Grace@keyward.test' })
  t.is(asked.status, 200)
  const unknown = await client.json('/users/recover.json', 'POST', {
    username: 'nobody@keyward.test',
  })
  t.deepEqual(
    [unknown.status, unknown.json.header.message],
    [200, asked.json.header.message],
    'unknown addresses learn nothing',
  )
  const mail = smtp.received.find((m) => m.text.includes('/setup/recover/'))!
  const [, recoverUser, recoverToken] = /\/setup\/recover\/([0-9a-f-]{36})\/([0-9a-f-]{36})/.exec(
    mail.text,
  )!
  t.is(recoverUser, userId)
  t.is((await client.fetch(`/setup/recover/start/${userId}/${recoverToken}.json`)).status, 200)
  const wrongKey = await generateUserKey('grace@keyward.test')
  const wrong = await complete(
    client,
    userId,
    recoverToken,
    wrongKey.armoredPublicKey,
    'setup/recover',
  )
  t.deepEqual(
    [wrong.status, wrong.json.body.gpgkey.armored_key.isUserKey],
    [400, 'The key should match the account key.'],
  )
  const right = await complete(client, userId, recoverToken, key.armoredPublicKey, 'setup/recover')
  t.deepEqual(
    [right.status, right.json.header.message],
    [200, 'The recovery was completed successfully.'],
  )
  await client.json('/users/recover.json', 'POST', { username: 'grace@keyward.test' })
  const second = /\/setup\/recover\/[0-9a-f-]{36}\/([0-9a-f-]{36})/.exec(
    smtp.received.at(-1)!.text,
  )![1]
  const aborted = await client.json(`/setup/recover/abort/${userId}.json`, 'POST', {
    authenticationtoken: { token: second },
  })
  t.is(aborted.status, 200)
  t.is((await client.fetch(`/setup/recover/start/${userId}/${second}.json`)).status, 400)
})

test('without SMTP, mail lands in the outbox folder and the log names no token', async (t) => {
  const api = await startTestApi(t)
  const { token } = await register(api)
  const outbox = join(api.app.config.dataDir, 'outbox')
  const [file] = readdirSync(outbox)
  t.true(decodeQuotedPrintable(readFileSync(join(outbox, file), 'utf8')).includes(token))
  const line = api.logs.find((l) => l.msg === 'mail written to the outbox (no SMTP configured)')
  t.is(line?.to, 'grace@keyward.test')
  t.false(JSON.stringify(api.logs).includes(token))
})
