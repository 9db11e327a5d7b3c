// Screenshots of the manual, taken from the official extension against a fresh Keyward in light
// (default) and dark (midgar) themes: the workspaces, the dialogs of the daily tasks, the account
// settings and every administration page the manual describes. `npm run docs:screenshots`
// writes them into content/docs/img/screenshots/ as WebP; a plain run takes them into a
// temporary folder and checks them. A screen whose page asks the server for something it refuses
// fails its step, so the pictures also check that each page works against Keyward.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import type { FrameLocator, Locator, Page } from 'playwright-core'
import sharp from 'sharp'
import { readOrganizationMfa } from '../../plugins/mfa/service.ts'
import { writeAccountSetting } from '../../plugins/settings/index.ts'
import { type ExtensionBrowser, extensionForTest, stepsFor } from '../helpers/extension.ts'
import { createUserWithCli, setUpInOwnBrowser, withPassphrase } from './accounts.ts'
import { startServerForExtension } from './server.ts'
import { pickAro } from './sharing.ts'
import { createPasswordInDialog, home, revealPassword, rowOf, sql } from './workspace.ts'

const PASSPHRASE = 'correct horse battery staple keyward'
const ADMIN = { username: 'ada@keyward.test', firstName: 'Ada', lastName: 'Lovelace' }
const PASSWORDS = [
  { name: 'Bank', uri: 'https://bank.example.com', username: 'ada@example.com' },
  { name: 'Mail server', uri: 'smtp.example.com', username: 'postmaster' },
  { name: 'Router', uri: 'https://192.168.1.1', username: 'admin' },
]
const FOLDER = 'Infrastructure'
const GROUP = 'Operations'
const TAG = 'network'

type Open = (browser: ExtensionBrowser, domain: string) => Promise<void>

/** Where a screen's content is: the extension's app frame, or the page itself. */
type Root = FrameLocator | Page

/**
 * Opens `path` and waits for what `ready` finds. Most pages are drawn by the extension in its
 * frame; a few administration pages and the MFA settings are handed over to passbolt's API app,
 * which Keyward serves and which draws in the page itself, so both are searched.
 */
const at =
  (path: string, ready: (root: Root) => Locator): Open =>
  async (browser, domain) => {
    await browser.page.goto(`${domain}${path}`)
    await Promise.any(
      [browser.iframe('app'), browser.page].map((root) =>
        ready(root).first().waitFor({ timeout: 60_000 }),
      ),
    )
  }

const text = (value: string | RegExp) => (root: Root) => root.getByText(value)
const element = (selector: string) => (root: Root) => root.locator(selector)

/** Selects a password of the grid by its name (a click in another cell would copy it). */
const select = (app: FrameLocator, name: string) =>
  rowOf(app, name).getByText(name, { exact: true }).click()

/** Opens the workspace at `path`, then its Create menu, and picks `entry`. */
const create = async (browser: ExtensionBrowser, domain: string, path: string, entry: string) => {
  await browser.page.goto(`${domain}${path}`)
  const app = browser.iframe('app')
  await app.getByRole('button', { name: 'Create' }).click({ timeout: 60_000 })
  await app.getByRole('button', { name: entry, exact: true }).first().click()
}

/** The screens of the manual: the file name, and how to reach it from the signed-in workspace. */
const SCREENS: { name: string; open: Open }[] = [
  // The password workspace and its daily tasks.
  {
    name: 'passwords',
    open: async (browser, domain) => {
      await home(browser, domain)
      await rowOf(browser.iframe('app'), PASSWORDS[0].name).waitFor()
    },
  },
  {
    name: 'password-preview',
    open: async (browser, domain) => {
      await home(browser, domain)
      await revealPassword(browser, PASSWORDS[0].name, PASSPHRASE)
    },
  },
  {
    name: 'create-password',
    open: async (browser, domain) => {
      await create(browser, domain, '/app/passwords', 'Password')
      const dialog = browser.iframe('app').locator('.create-resource')
      await dialog.locator('#resource-name').fill('Staging database')
      await dialog.locator('#resource-uri').fill('https://db.staging.example.com')
      await dialog.locator('#resource-username').fill('ops')
    },
  },
  {
    name: 'edit-password',
    open: async (browser, domain) => {
      await home(browser, domain)
      const app = browser.iframe('app')
      await select(app, PASSWORDS[1].name)
      await app.locator('#edit_action button').click()
      const secret = app.locator('.edit-resource #resource-password')
      await withPassphrase(app, secret, PASSPHRASE)
      // The dialog decrypts the current secret into the field.
      const deadline = Date.now() + 30_000
      while (!(await secret.inputValue())) {
        if (Date.now() > deadline) throw new Error('the edit dialog never showed the password')
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    },
  },
  {
    name: 'share',
    open: async (browser, domain) => {
      await home(browser, domain)
      const app = browser.iframe('app')
      await select(app, PASSWORDS[0].name)
      await app.locator('#share_action button').click()
      await app.locator('.share-form').waitFor()
      await pickAro(app, '#share-name-input', GROUP.slice(0, 4), GROUP)
      await app.getByText('Click save to apply your pending changes.').waitFor()
    },
  },
  {
    name: 'folders',
    open: async (browser, domain) => {
      await home(browser, domain)
      const app = browser.iframe('app')
      await app.locator('.folders-tree').getByText(FOLDER, { exact: true }).first().click()
      await rowOf(app, PASSWORDS[2].name).waitFor()
    },
  },
  {
    name: 'tags',
    open: async (browser, domain) => {
      await home(browser, domain)
      const app = browser.iframe('app')
      await app
        .locator('li.tag-item')
        .filter({ hasText: TAG })
        .first()
        .locator('.main-cell')
        .click()
      await rowOf(app, PASSWORDS[2].name).waitFor()
      await rowOf(app, PASSWORDS[0].name).waitFor({ state: 'detached' })
    },
  },
  {
    name: 'import',
    open: async (browser, domain) => {
      await create(browser, domain, '/app/passwords', 'Import resources')
      await browser.iframe('app').locator('#dialog-import-passwords').waitFor({ state: 'attached' })
    },
  },
  // The account settings.
  { name: 'profile', open: at('/app/settings/profile', text(ADMIN.username)) },
  { name: 'passphrase', open: at('/app/settings/passphrase', text('Before getting started')) },
  {
    name: 'security-token',
    open: at('/app/settings/security-token', text('Update the Security Token')),
  },
  { name: 'keys', open: at('/app/settings/keys', text('Public key block')) },
  { name: 'user-mfa', open: at('/app/settings/mfa', text('Please select a provider')) },
  {
    name: 'totp-setup',
    open: async (browser, domain) => {
      await at('/app/settings/mfa', text('Please select a provider'))(browser, domain)
      const frame = browser.iframe('app')
      const app: Root = (await frame.getByText('Please select a provider').count())
        ? frame
        : browser.page
      await app.locator('li#totp a').click()
      await app.getByRole('button', { name: 'Get started' }).click()
      // The QR code of the provisioning URI Keyward made for this user.
      await app
        .locator('.totp-setup .qrcode img, .totp-setup .qrcode canvas, .totp-setup .qrcode svg')
        .first()
        .waitFor()
    },
  },
  {
    name: 'account-kit',
    open: at('/app/settings/desktop', text('Welcome to the desktop app setup')),
  },
  {
    name: 'mobile-setup',
    open: at('/app/settings/mobile', text('Welcome to the mobile app setup')),
  },
  // Users and groups.
  {
    name: 'users',
    open: at('/app/users', text(ADMIN.username)),
  },
  {
    name: 'create-user',
    open: async (browser, domain) => {
      await create(browser, domain, '/app/users', 'User')
      const dialog = browser.iframe('app').locator('.user-create-dialog')
      await dialog.locator('#user-first-name-input').fill('Margaret')
      await dialog.locator('#user-last-name-input').fill('Hamilton')
      await dialog.locator('#user-username-input').fill('margaret@keyward.test')
    },
  },
  {
    name: 'create-group',
    open: async (browser, domain) => {
      await create(browser, domain, '/app/users', 'Group')
      const app = browser.iframe('app')
      await app.locator('#group-name-input').fill('Support')
      await app.locator('.edit-group-dialog').getByText('Ada Lovelace').waitFor()
    },
  },
  // The organisation settings.
  {
    name: 'admin-mfa',
    open: at('/app/administration/mfa', element('#totp-provider-toggle-button:checked')),
  },
  {
    name: 'email-notifications',
    open: at(
      '/app/administration/email-notification',
      element('#send-password-create-toggle-button'),
    ),
  },
  {
    name: 'smtp',
    open: at('/app/administration/smtp-settings', element('#smtp-settings-form-provider')),
  },
  {
    name: 'password-policy',
    open: at('/app/administration/password-policies', (app) =>
      app.locator('#passwordLength').or(app.getByText('Password Policy', { exact: true })),
    ),
  },
  {
    name: 'passphrase-policy',
    open: at('/app/administration/user-passphrase-policies', element('#entropy_minimum')),
  },
  {
    name: 'password-expiry',
    open: at('/app/administration/password-expiry', element('#passwordExpirySettingsToggle')),
  },
  {
    name: 'password-history',
    open: at('/app/administration/secret-history', element('#secret-history-settings-title')),
  },
  {
    name: 'encrypted-metadata',
    open: at(
      '/app/administration/content-types/metadata',
      element('#content-types-encrypted-metadata-settings'),
    ),
  },
  {
    name: 'metadata-key',
    open: at('/app/administration/content-types/metadata-key', text('Metadata key policy')),
  },
  {
    name: 'migrate-metadata',
    open: at(
      '/app/administration/migrate-metadata',
      text('Initiate a migration to convert cleartext metadata to encrypted metadata.'),
    ),
  },
  {
    name: 'allowed-content-types',
    open: at('/app/administration/allow-content-types', element('#allow-content-types')),
  },
  {
    name: 'roles',
    open: at('/app/administration/rbacs', text('Can import')),
  },
  {
    name: 'healthcheck',
    open: at('/app/administration/healthcheck', text(/able to connect to the database/)),
  },
  {
    name: 'internationalisation',
    open: at('/app/administration/internationalization', element('#locale-input')),
  },
  {
    name: 'self-registration',
    open: at('/app/administration/self-registration', element('#settings-toggle')),
  },
]

const root = fileURLToPath(new URL('../..', import.meta.url))
/** Where `npm run docs:screenshots` keeps them, next to the pages that show them. */
const SCREENSHOTS_DIR = join(root, 'content/docs/img/screenshots')
/** The largest file a screenshot may be: the manual shows each twice (light and dark). */
const MAX_SCREENSHOT_BYTES = 80_000

test('the manual’s screenshots, from the official extension, in light and dark', async (t) => {
  t.timeout(30 * 60_000)
  const write = process.env.KEYWARD_WRITE_SCREENSHOTS === '1'
  const out = write ? SCREENSHOTS_DIR : mkdtempSync(join(tmpdir(), 'keyward-screenshots-'))
  if (!write) t.teardown(() => rmSync(out, { recursive: true, force: true }))
  mkdirSync(out, { recursive: true })
  const extensionDir = await extensionForTest(t)
  // Passwords in cleartext metadata (v4), as an organisation that has not turned encrypted
  // metadata on yet has them: the metadata pages then show the switch and the migration.
  const { api, domain } = await startServerForExtension(t, {
    KEYWARD_METADATA_NEW_ORGANISATIONS: 'v4',
  })
  const browsers: ExtensionBrowser[] = []
  const steps = stepsFor(t, api, () => browsers)
  let admin!: ExtensionBrowser

  await steps.run('the administrator sets up and creates three passwords', async () => {
    await createUserWithCli(api, ADMIN, true)
    admin = await setUpInOwnBrowser(
      t,
      { api, extensionDir, browsers },
      ADMIN,
      PASSPHRASE,
      'screenshots',
    )
    for (const password of PASSWORDS)
      await createPasswordInDialog(admin, domain, {
        ...password,
        secret: `${password.name} secret 2026`,
      })
    const [{ count }] = await sql<{ count: number }>(
      api,
      'select count(*)::int as count from resources where not deleted',
    )
    t.is(count, PASSWORDS.length)
  })
  const app = admin.iframe('app')

  await steps.run(`a folder ${FOLDER} holds the router, tagged ${TAG}`, async () => {
    await home(admin, domain)
    await app.getByRole('button', { name: 'Create' }).click()
    await app.getByRole('button', { name: 'Folder', exact: true }).click()
    await app.locator('#folder-name-input').fill(FOLDER)
    await app.locator('.dialog button[type="submit"]').click()
    await app.getByText('The folder has been added successfully').waitFor({ timeout: 30_000 })
    const folder = app.locator('.folders-tree').getByText(FOLDER, { exact: true }).first()
    await admin.page.waitForURL(/\/app\/folders\/view\//)
    await app.getByRole('button', { name: 'Home' }).click()
    await admin.page.waitForURL(new RegExp(`^${domain}/app/passwords$`))
    await rowOf(app, PASSWORDS[2].name).dragTo(folder)
    await rowOf(app, PASSWORDS[2].name).getByText(FOLDER).waitFor({ timeout: 30_000 })
    // From a fresh list: the dragged row stays selected, and a click would unselect it.
    await home(admin, domain)
    await select(app, PASSWORDS[2].name)
    const sidebar = app.locator('.sidebar, .panel.aside').first()
    await sidebar.locator('.detailed-tags .accordion-header button').click()
    await sidebar.locator('.detailed-tags .section-action').click()
    await sidebar.locator('.tag-editor-input').fill(TAG)
    await sidebar.locator('.tag-editor-input').press('Enter')
    await sidebar.locator('.tag-editor-submit').click()
    await app.getByText('The tags have been updated successfully').waitFor({ timeout: 30_000 })
    const [placed] = await sql<{ folder: string; tag: string }>(
      api,
      `select f.name as folder, t.slug as tag from resources r
       join folders_relations fr on fr.foreign_id = r.id join folders f on f.id = fr.folder_parent_id
       join resources_tags rt on rt.resource_id = r.id join tags t on t.id = rt.tag_id
       where r.name = ?`,
      [PASSWORDS[2].name],
    )
    t.deepEqual(placed, { folder: FOLDER, tag: TAG })
  })

  await steps.run(`the group ${GROUP}, and TOTP offered to everyone`, async () => {
    await create(admin, domain, '/app/users', 'Group')
    await app.locator('#group-name-input').fill(GROUP)
    await app.locator('.edit-group-dialog').getByText('Ada Lovelace').waitFor()
    await app.locator('.edit-group-dialog button[type="submit"]').click()
    await app.getByText('The group has been created successfully.').waitFor({ timeout: 30_000 })
    // The API app draws this page in the tab itself, not in the extension's frame.
    await admin.page.goto(`${domain}/app/administration/mfa`)
    const totp = admin.page.locator('#totp-provider-toggle-button')
    await totp.waitFor({ state: 'attached', timeout: 60_000 })
    await totp.check({ force: true })
    await admin.page.locator('#save-settings').click()
    await admin.page
      .getByText('The multi factor authentication settings for the organization were updated.')
      .first()
      .waitFor()
    const groups = await sql<{ name: string }>(api, 'select name from groups where not deleted')
    t.deepEqual(
      groups.map((group) => group.name),
      [GROUP],
    )
    t.deepEqual((await readOrganizationMfa(api.app.orm.em.fork())).providers, ['totp'])
  })

  const [user] = await sql<{ id: string }>(api, 'select id from users where username = ?', [
    ADMIN.username,
  ])
  // Every screen is tried, so one run names every page that does not work against Keyward.
  const failed: string[] = []
  for (const [mode, theme] of [
    ['light', 'default'],
    ['dark', 'midgar'],
  ] as const) {
    await writeAccountSetting(api.app.orm.em.fork(), user.id, 'theme', theme)
    for (const screen of SCREENS)
      await steps
        .run(`${screen.name} in ${mode}`, async () => {
          await screen.open(admin, domain)
          // Toasts and the loading bar fade; the picture waits for the page to settle.
          await admin.page.waitForTimeout(1500)
          const png = await admin.page.screenshot({ type: 'png' })
          const image = await sharp(png).webp({ quality: 70, effort: 6 }).toBuffer()
          // A WebP of the whole 1440 x 900 window, small enough for the manual's pages.
          const { format, width, height } = await sharp(image).metadata()
          t.deepEqual({ format, width, height }, { format: 'webp', width: 1440, height: 900 })
          t.true(image.length > 8_000, `${screen.name}-${mode}: ${image.length} bytes`)
          t.true(
            image.length <= MAX_SCREENSHOT_BYTES,
            `${screen.name}-${mode}: ${image.length} bytes`,
          )
          writeFileSync(join(out, `${screen.name}-${mode}.webp`), image)
        })
        .catch((error: Error) => failed.push(`${screen.name} in ${mode}: ${error.message}`))
  }
  t.deepEqual(failed, [])
})
