// The move as a user lives it, with the official extension in Chromium: the extension is set up
// against the organisation's address while a server there presents passbolt's server key; the
// organisation is then moved out of passbolt's MariaDB into Keyward, which takes over that address
// and key. The same browser profile signs in with no new setup, lists the password and decrypts it.
import { randomUUID } from 'node:crypto'
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import test from 'ava'
import * as openpgp from 'openpgp'
import { plugins } from '../../plugins/index.ts'
import { migrateFromPassbolt } from '../../plugins/passbolt-import/index.ts'
import { completeSetup, createUserWithCli, submitPassphrase } from '../extension/accounts.ts'
import { revealPassword, rowOf, sql } from '../extension/workspace.ts'
import { SERVER_KEY, startTestApi } from '../helpers/api.ts'
import { createTestDatabase } from '../helpers/database.ts'
import {
  type ExtensionBrowser,
  extensionForTest,
  freePort,
  launchExtension,
  linkFromOutbox,
  stepsFor,
} from '../helpers/extension.ts'
import { startTlsProxy } from '../helpers/tls-proxy.ts'
import { createPassboltDatabase } from './fixture.ts'
import {
  CREATED,
  insertPasswordType,
  MODIFIED,
  migratedTarget,
  stamps,
  tempDir,
  V4_TYPE,
} from './organisation.ts'

const PASSPHRASE = 'passbolt user moving to keyward'
const GRACE = { username: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' }
const PASSWORD = { name: 'Core router', username: 'netadmin', secret: 'moved-without-setup-42' }

test('after the move, a passbolt user signs in with the official extension without a new setup and decrypts a password', async (t) => {
  t.timeout(10 * 60_000)
  const extensionDir = await extensionForTest(t)
  // One address throughout, as in production: the TLS front points at passbolt, then at Keyward.
  let backend = await freePort()
  const domain = await startTlsProxy(t, await freePort(), () => backend)
  const passbolt = await startTestApi(t, {
    plugins,
    databaseUrl: await createTestDatabase(t),
    env: {
      KEYWARD_PORT: String(backend),
      KEYWARD_APP_URL: `${domain}/`,
      KEYWARD_METADATA_NEW_ORGANISATIONS: 'v4',
    },
  })
  const browsers: ExtensionBrowser[] = []
  let steps = stepsFor(t, passbolt, () => browsers)

  let browser!: ExtensionBrowser
  await steps.run('1. Grace sets up the extension at the organisation’s address', async () => {
    await createUserWithCli(passbolt, GRACE, true)
    browser = await launchExtension(t, extensionDir, 'grace')
    browsers.push(browser)
    await completeSetup(
      browser,
      await linkFromOutbox(passbolt.app.config.dataDir, GRACE.username, 'install'),
      PASSPHRASE,
    )
    await browser.iframe('app').getByPlaceholder('Search resource').waitFor()
  })
  const lastSync = Date.now()

  // passbolt's database: Grace as the extension knows her (id, key), with a password encrypted
  // to her key, in passbolt 5.12's tables on MariaDB.
  const [grace] = await sql<{
    id: string
    armored_key: string
    fingerprint: string
    uid: string
    key_id: string
    type: string
  }>(
    passbolt,
    `select u.id, g.armored_key, g.fingerprint, g.uid, g.key_id, g.type from users u
      join gpgkeys g on g.user_id = u.id where u.username = ? and not g.deleted`,
    [GRACE.username],
  )
  await passbolt.close()
  const db = await createPassboltDatabase(t)
  const admin = randomUUID()
  await db.insert('roles', { id: admin, name: 'admin', description: 'admin role', ...stamps })
  await db.insert('roles', { id: randomUUID(), name: 'user', description: 'user role', ...stamps })
  await insertPasswordType(db)
  await db.insert('users', {
    id: grace.id,
    role_id: admin,
    username: GRACE.username,
    active: 1,
    ...stamps,
  })
  await db.insert('profiles', {
    id: randomUUID(),
    user_id: grace.id,
    first_name: GRACE.firstName,
    last_name: GRACE.lastName,
    ...stamps,
  })
  await db.insert('gpgkeys', {
    id: randomUUID(),
    user_id: grace.id,
    armored_key: grace.armored_key,
    uid: grace.uid,
    key_id: grace.key_id,
    fingerprint: grace.fingerprint,
    type: grace.type,
    key_created: CREATED,
    ...stamps,
  })
  const resource = randomUUID()
  await db.insert('resources', {
    id: resource,
    name: PASSWORD.name,
    username: PASSWORD.username,
    resource_type_id: V4_TYPE,
    ...stamps,
    created_by: grace.id,
    modified_by: grace.id,
  })
  await db.insert('permissions', {
    id: randomUUID(),
    aco: 'Resource',
    aco_foreign_key: resource,
    aro: 'User',
    aro_foreign_key: grace.id,
    type: 15,
    ...stamps,
  })
  await db.insert('secrets', {
    id: randomUUID(),
    user_id: grace.id,
    resource_id: resource,
    data: await openpgp.encrypt({
      message: await openpgp.createMessage({
        text: JSON.stringify({ password: PASSWORD.secret, description: '' }),
      }),
      encryptionKeys: await openpgp.readKey({ armoredKey: grace.armored_key }),
    }),
    created: CREATED,
    modified: MODIFIED,
  })
  // passbolt's config/gpg: the server key the extension trusts.
  const gpgDir = tempDir(t)
  copyFileSync(SERVER_KEY.privatePath, join(gpgDir, 'serverkey_private.asc'))
  copyFileSync(SERVER_KEY.publicPath, join(gpgDir, 'serverkey.asc'))

  const target = await migratedTarget(t)
  const report = await migrateFromPassbolt({
    from: db.url,
    gpgDir,
    orm: target.orm,
    serverKey: target.serverKey,
  })
  t.deepEqual(report.skipped, [])
  backend = await freePort()
  const keyward = await startTestApi(t, {
    plugins,
    databaseUrl: target.url,
    env: {
      KEYWARD_PORT: String(backend),
      KEYWARD_APP_URL: `${domain}/`,
      KEYWARD_SERVER_KEY_PRIVATE: target.serverKey.privatePath,
      KEYWARD_SERVER_KEY_PUBLIC: target.serverKey.publicPath,
    },
  })
  steps = stepsFor(t, keyward, () => browsers)

  await steps.run(
    '2. the same extension signs in to Keyward, lists the moved password and decrypts it',
    async () => {
      // The sign-in page knows Grace already: the extension kept her account.
      // The extension skips a refresh of its password list within 10 s of the last one for the
      // same account, and the move keeps Grace's account id: a move that quick would show her
      // the list she had on passbolt (empty) until the next refresh. A real move takes longer.
      await delay(Math.max(0, lastSync + 11_000 - Date.now()))
      await browser.page.goto(`${domain}/auth/login`)
      await browser.iframe('login').getByText(GRACE.username).waitFor({ timeout: 60_000 })
      await submitPassphrase(browser, domain, PASSPHRASE)
      const row = rowOf(browser.iframe('app'), PASSWORD.name)
      await row.waitFor({ timeout: 60_000 })
      t.true((await row.innerText()).includes(PASSWORD.username))
      t.is(await revealPassword(browser, PASSWORD.name, PASSPHRASE), PASSWORD.secret)
    },
    // The first page load finds no session on the new server, as after any restart.
    ['GET /auth/is-authenticated.json 401'],
  )
  const answers = keyward.logs
    .filter((line) => line.msg === 'request')
    .map((line) => String(line.path))
  t.false(
    answers.some((path) => path.startsWith('/setup/') || path.startsWith('/users/recover')),
    'no setup and no recovery: the extension kept its account',
  )
  t.true(answers.includes('/auth/login.json'), 'it signed in by GPGAuth against the moved key')
})
