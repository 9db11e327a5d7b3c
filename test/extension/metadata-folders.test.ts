// The official passbolt browser extension, folders in an organisation with encrypted metadata
// on: the administrator files a v5 password in a folder she creates, shares the folder with a
// user who joined afterwards, and that user finds the folder and reads the password in it from
// her own extension. The extension 5.11 creates folders with their name only (its metadata
// settings keep folders v4); the server takes them so, and re-encrypts nothing itself: the
// password's metadata moves from its owner's key to the shared metadata key when the folder is
// shared. Real HTTP, PostgreSQL, keys and extension code.
import test from 'ava'
import {
  type ExtensionBrowser,
  extensionForTest,
  launchExtension,
  linkFromOutbox,
  stepsFor,
} from '../helpers/extension.ts'
import { secretInvariantViolations } from '../helpers/vault.ts'
import {
  completeSetup,
  createUserWithCli,
  SIGN_OUT_ANSWERS,
  setUpInOwnBrowser,
  signOut,
  submitPassphrase,
  withPassphrase,
} from './accounts.ts'
import { startServerForExtension } from './server.ts'
import { MARGARET, MARGARET_PASSPHRASE, pickAro } from './sharing.ts'
import {
  createPasswordInDialog,
  FOLDER,
  home,
  PASSWORD,
  revealPassword,
  rowOf,
  sql,
} from './workspace.ts'

const PASSPHRASE = 'correct horse battery staple keyward'
const SECOND = {
  name: 'Backup server',
  uri: 'https://backup.example.com',
  username: 'backup',
  secret: 'b4ckup-Keyward-7',
}
const ADMIN = { username: 'ada@keyward.test', firstName: 'Ada', lastName: 'Lovelace' }

test('with encrypted metadata on: a folder holding a v5 password is shared and read by another user', async (t) => {
  t.timeout(10 * 60_000)
  const extensionDir = await extensionForTest(t)
  const { api, domain } = await startServerForExtension(t)
  const browsers: ExtensionBrowser[] = []
  const steps = stepsFor(t, api, () => browsers)
  let admin!: ExtensionBrowser
  let margaret!: ExtensionBrowser
  const adminApp = () => admin.iframe('app')
  const folderIn = (browser: ExtensionBrowser) =>
    browser.iframe('app').locator('.folders-tree').getByText(FOLDER, { exact: true }).first()
  /** The password's row as stored: its metadata key type and who can read it. */
  const storedPassword = async () => {
    const [row] = await sql<{
      name: string | null
      metadata_key_type: string | null
      metadata: string | null
      secrets: number
    }>(
      api,
      `select r.name, r.metadata_key_type, r.metadata,
       (select count(*)::int from secrets s where s.resource_id = r.id) as secrets
       from resources r where not r.deleted`,
    )
    return row
  }

  await steps.run('F0. the first administrator sets up; encrypted metadata is on', async () => {
    await createUserWithCli(api, ADMIN, true)
    admin = await setUpInOwnBrowser(t, { api, extensionDir, browsers }, ADMIN, PASSPHRASE, 'admin')
    const [types] = await sql<{ value: Record<string, unknown> }>(
      api,
      "select value from organization_settings where property = 'metadataTypes'",
    )
    t.like(types?.value, {
      default_resource_types: 'v5',
      default_folder_type: 'v4',
      allow_creation_of_v4_folders: true,
    })
  })

  await steps.run(
    'F1. she creates a v5 password and a folder, and drags the password into it',
    async () => {
      await createPasswordInDialog(admin, domain, PASSWORD)
      const app = adminApp()
      await rowOf(app, PASSWORD.name).waitFor()
      const created = await storedPassword()
      t.is(created.name, null)
      t.truthy(created.metadata)
      t.is(created.secrets, 1)
      const personalType = created.metadata_key_type
      t.true(['user_key', 'shared_key'].includes(personalType ?? ''), String(personalType))

      await home(admin, domain)
      await app.getByRole('button', { name: 'Create' }).click()
      await app.getByRole('button', { name: 'Folder', exact: true }).click()
      await app.locator('#folder-name-input').fill(FOLDER)
      await app.locator('.dialog button[type="submit"]').click()
      await app.getByText('The folder has been added successfully').waitFor({ timeout: 30_000 })
      await folderIn(admin).waitFor()
      await admin.page.waitForURL(/\/app\/folders\/view\//)
      // The extension sends the folder's name in clear: a v4 folder, which the settings allow.
      const folders = await sql<{ name: string; metadata: string | null }>(
        api,
        'select name, metadata from folders',
      )
      t.deepEqual(folders, [{ name: FOLDER, metadata: null }])

      await app.getByRole('button', { name: 'Home' }).click()
      await admin.page.waitForURL(new RegExp(`^${domain}/app/passwords$`))
      await rowOf(app, PASSWORD.name).dragTo(folderIn(admin))
      await withPassphrase(app, rowOf(app, PASSWORD.name).getByText(FOLDER), PASSPHRASE, 30_000)
      const [placed] = await sql<{ parent: string }>(
        api,
        `select f.name as parent from folders_relations fr
         join resources r on r.id = fr.foreign_id join folders f on f.id = fr.folder_parent_id`,
      )
      t.is(placed?.parent, FOLDER)
      // A move into a folder only its owner reads changes nobody's access, nor the metadata.
      t.is((await storedPassword()).metadata_key_type, personalType)
    },
  )

  await steps.run('F2. a new user sets up her account and gets the metadata key', async () => {
    await createUserWithCli(api, MARGARET)
    margaret = await launchExtension(t, extensionDir, 'margaret')
    browsers.push(margaret)
    await completeSetup(
      margaret,
      await linkFromOutbox(api.app.config.dataDir, MARGARET.username, 'install'),
      MARGARET_PASSPHRASE,
    )
    const [copies] = await sql<{ count: number }>(
      api,
      `select count(*)::int as count from metadata_private_keys p join users u on u.id = p.user_id
       where u.username = ?`,
      [MARGARET.username],
    )
    t.is(copies.count, 1)
    // Nothing is shared with her yet.
    t.is(await folderIn(margaret).count(), 0)
  })

  await steps.run('F3. the administrator shares the folder with her', async () => {
    const app = adminApp()
    await home(admin, domain)
    await folderIn(admin).click({ button: 'right' })
    await app.locator('.contextual-menu button.share').click()
    await app.locator('.share-form').waitFor()
    await pickAro(
      app,
      '#share-name-input',
      'margaret',
      `${MARGARET.firstName} ${MARGARET.lastName}`,
    )
    await app.getByText('Click save to apply your pending changes.').waitFor()
    await app.locator('.share-form button[type="submit"]').click()
    // The extension decrypts the password's secret to encrypt it for her, and its metadata to
    // encrypt it with the shared key.
    await withPassphrase(
      app,
      app.getByText('The permissions have been changed successfully.'),
      PASSPHRASE,
      120_000,
    )
    const granted = await sql<{ aco: string; type: number }>(
      api,
      `select p.aco, p.type from permissions p join users u on u.id = p.aro_foreign_key
       where u.username = ? order by p.aco`,
      [MARGARET.username],
    )
    t.deepEqual(granted, [
      { aco: 'Folder', type: 1 },
      { aco: 'Resource', type: 1 },
    ])
    const shared = await storedPassword()
    t.is(shared.metadata_key_type, 'shared_key', 'a shared password is encrypted to the shared key')
    t.is(shared.secrets, 2)
    t.is(shared.name, null)
    const [key] = await sql<{ id: string }>(api, 'select id from metadata_keys')
    const [onKey] = await sql<{ metadata_key_id: string }>(
      api,
      'select metadata_key_id from resources where not deleted',
    )
    t.is(onKey.metadata_key_id, key.id)
    t.deepEqual(await secretInvariantViolations(api), [])
    const [texts] = await sql<{ text: string }>(
      api,
      "select string_agg(concat_ws(' ', name, username, uri, description, metadata), ' ') as text from resources",
    )
    for (const clear of [PASSWORD.name, PASSWORD.username, PASSWORD.uri])
      t.false(texts.text.includes(clear), `"${clear}" is stored in clear`)
  })

  await steps.run(
    'F4. she signs in, opens the folder and reads the password in it',
    async () => {
      await signOut(margaret, domain)
      await submitPassphrase(margaret, domain, MARGARET_PASSPHRASE)
      const app = margaret.iframe('app')
      await folderIn(margaret).waitFor({ timeout: 60_000 })
      await folderIn(margaret).click()
      await margaret.page.waitForURL(/\/app\/folders\/view\//)
      const row = rowOf(app, PASSWORD.name)
      await withPassphrase(app, row, MARGARET_PASSPHRASE, 60_000)
      t.true((await row.innerText()).includes(PASSWORD.username))
      t.true((await row.innerText()).includes(PASSWORD.uri.replace(/^https:\/\//, '')))
      t.is(await revealPassword(margaret, PASSWORD.name, MARGARET_PASSPHRASE), PASSWORD.secret)
    },
    SIGN_OUT_ANSWERS,
  )
  await steps.run(
    'F5. the administrator files a new personal v5 password in the shared folder; she reads it too',
    async () => {
      const app = adminApp()
      // The dialog of createPasswordInDialog, answering the passphrase prompt the extension
      // shows once the passphrase kept from the sign-in has expired.
      await home(admin, domain)
      await app.getByRole('button', { name: 'Create' }).click()
      await app.getByRole('button', { name: 'Password', exact: true }).first().click()
      const dialog = app.locator('.create-resource')
      await dialog.locator('#resource-name').fill(SECOND.name)
      await dialog.locator('#resource-uri').fill(SECOND.uri)
      await dialog.locator('#resource-username').fill(SECOND.username)
      await dialog.locator('#resource-password').fill(SECOND.secret)
      await dialog.getByRole('button', { name: 'Create', exact: true }).click()
      await withPassphrase(
        app,
        app.getByText('The resource has been added successfully'),
        PASSPHRASE,
        60_000,
      )
      await rowOf(app, SECOND.name).waitFor()
      const stored = () =>
        sql<{ metadata_key_type: string; readers: string[] }>(
          api,
          `select r.metadata_key_type,
           array(select u.username from secrets s join users u on u.id = s.user_id
                 where s.resource_id = r.id order by 1) as readers
           from resources r where not r.deleted and r.id not in
             (select foreign_id from folders_relations where folder_parent_id is not null)`,
        )
      t.like(await stored(), [{ metadata_key_type: 'user_key', readers: [ADMIN.username] }])
      await rowOf(app, SECOND.name).dragTo(folderIn(admin))
      // The extension moves it, then shares it as the folder is shared (new secret, metadata
      // on the shared key) behind a progress dialog, which may ask for the passphrase.
      const moving = app.getByText('Moving one resource')
      await withPassphrase(app, moving, PASSPHRASE, 60_000)
      const prompt = app.locator('.passphrase-entry')
      for (let waited = 0; (await moving.isVisible()) && waited < 120; waited++) {
        if (await prompt.isVisible()) {
          await prompt.locator('#passphrase-entry-form-passphrase').fill(PASSPHRASE)
          await prompt.locator('button[type="submit"]').click()
        }
        await admin.page.waitForTimeout(1_000)
      }
      await moving.waitFor({ state: 'detached' })
      await rowOf(app, SECOND.name).getByText(FOLDER).waitFor()
      // Moved into a shared folder, it takes the folder's readers and the shared key.
      const [moved] = await sql<{
        metadata_key_type: string
        readers: string[]
        parents: string[]
      }>(
        api,
        `select r.metadata_key_type,
         array(select u.username from secrets s join users u on u.id = s.user_id
               where s.resource_id = r.id order by 1) as readers,
         array(select distinct f.name from folders_relations fr join folders f on f.id = fr.folder_parent_id
               where fr.foreign_id = r.id) as parents
         from resources r where not r.deleted order by r.created desc limit 1`,
      )
      t.deepEqual(moved, {
        parents: [FOLDER],
        metadata_key_type: 'shared_key',
        readers: [ADMIN.username, MARGARET.username],
      })
      t.deepEqual(await secretInvariantViolations(api), [])
      const mine = margaret.iframe('app')
      await margaret.page.goto(`${domain}/app/passwords`)
      await folderIn(margaret).click({ timeout: 60_000 })
      await withPassphrase(mine, rowOf(mine, SECOND.name), MARGARET_PASSPHRASE, 60_000)
      t.is(await revealPassword(margaret, SECOND.name, MARGARET_PASSPHRASE), SECOND.secret)
    },
    // While a workspace loads, the extension may save a user's session keys twice from the
    // same version: the later save is stale and refused (409) as passbolt refuses it; the
    // extension logs it and goes on.
    ['PUT /metadata/session-keys/{id}.json 409'],
  )
  t.log(steps.timings.map((s) => `${s.name}: ${(s.ms / 1000).toFixed(1)} s`).join('\n'))
})
