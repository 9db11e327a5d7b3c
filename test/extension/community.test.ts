// The community screens of the official passbolt extension against a freshly started Keyward:
// the mobile transfer (the phone's side played from Node: it reads each QR code the extension
// shows, then signs in by JWT with the key it received), the desktop account kit, importing and
// exporting passwords, the password history, and roles with UI rights, where a user of a custom
// role no longer sees what the administrator denied. Real HTTP, PostgreSQL, keys, extension.
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'ava'
import * as openpgp from 'openpgp'
import { readOrganizationSetting } from '../../plugins/settings/index.ts'
import { TestClient } from '../helpers/client.ts'
import { type ExtensionBrowser, extensionForTest, stepsFor } from '../helpers/extension.ts'
import { jwtLogin } from '../helpers/jwt.ts'
import { createUserWithCli, type Person, setUpInOwnBrowser, withPassphrase } from './accounts.ts'
import { readQrCode } from './qr.ts'
import { startServerForExtension } from './server.ts'
import { home, rowOf, sql } from './workspace.ts'

const PASSPHRASE = 'correct horse battery staple keyward'
const ADMIN: Person = { username: 'ada@keyward.test', firstName: 'Ada', lastName: 'Lovelace' }
const GRACE: Person = { username: 'grace@keyward.test', firstName: 'Grace', lastName: 'Hopper' }
const GRACE_PASSPHRASE = 'grace hopper finds the moth in keyward'
const ROLE = 'contractor'
const IMPORTED = [
  {
    name: 'Build server',
    url: 'https://ci.example.com',
    username: 'jenkins',
    password: 'J3nk!ns-pass',
  },
  {
    name: 'Mail relay',
    url: 'https://mail.example.com',
    username: 'relay',
    password: 'R3lay-pass!',
  },
]
const KDBX_PASSWORD = 'keepass file password for keyward'
/** KeePass 2 files start with these two signatures (little endian). */
const KDBX_SIGNATURE = Buffer.from([0x03, 0xd9, 0xa2, 0x9a, 0x67, 0xfb, 0x4b, 0xb5])

/**
 * Runs `action` and returns the file the browser downloaded because of it. The extension saves
 * files with `chrome.downloads` from its worker, which no page owns, so the browser's own list
 * of downloads is asked where the file went.
 */
const download = async (browser: ExtensionBrowser, action: () => Promise<void>) => {
  type Item = { id: number; filename: string; state: string; mime: string }
  const list = async () =>
    (await browser.worker()).evaluate(
      () =>
        new Promise<Item[]>((resolve) =>
          (
            globalThis as unknown as {
              chrome: { downloads: { search(query: object, done: (items: Item[]) => void): void } }
            }
          ).chrome.downloads.search({}, (items) =>
            resolve(items.map(({ id, filename, state, mime }) => ({ id, filename, state, mime }))),
          ),
        ),
    )
  const before = new Set((await list()).map((item) => item.id))
  await action()
  const deadline = Date.now() + 60_000
  for (;;) {
    const item = (await list()).find((i) => !before.has(i.id) && i.state === 'complete')
    if (item) return { mime: item.mime, content: readFileSync(item.filename) }
    if (Date.now() > deadline) throw new Error('no download completed')
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** The cookies a browser holds for the server, as a header for Node's fetch. */
const cookiesOf = async (browser: ExtensionBrowser, domain: string) =>
  (await browser.context.cookies(domain)).map((c) => `${c.name}=${c.value}`).join('; ')

test('the mobile transfer, account kit, import, export, password history and roles screens work as a user and an administrator', async (t) => {
  t.timeout(12 * 60_000)
  const extensionDir = await extensionForTest(t)
  // HTTPS in front (the server helper's TLS front): the extension offers the mobile transfer
  // in a secure context only.
  const { api, domain } = await startServerForExtension(t, {
    KEYWARD_METADATA_NEW_ORGANISATIONS: 'v4',
  })
  const browsers: ExtensionBrowser[] = []
  const steps = stepsFor(t, api, () => browsers)
  const files = mkdtempSync(join(tmpdir(), 'keyward-community-'))
  t.teardown(() => rmSync(files, { recursive: true, force: true }))

  /** A person follows their setup link in a browser profile of their own. */
  const setUp = (person: Person, passphrase: string, label: string) =>
    setUpInOwnBrowser(t, { api, extensionDir, browsers }, person, passphrase, label)
  let admin!: ExtensionBrowser
  await steps.run('C0. the administrator sets up their account', async () => {
    await createUserWithCli(api, ADMIN, true)
    admin = await setUp(ADMIN, PASSPHRASE, 'admin')
  })
  const app = admin.iframe('app')
  const [adminRow] = await sql<{ id: string; armored_key: string }>(
    api,
    `select u.id, g.armored_key from users u join gpgkeys g on g.user_id = u.id and not g.deleted
     where u.username = ?`,
    [ADMIN.username],
  )

  await steps.run(
    'C1. mobile setup: the phone reads every QR code, completes the transfer and signs in by JWT',
    async () => {
      await admin.page.goto(`${domain}/app/settings/mobile`)
      await app.getByText('Mobile setup', { exact: true }).first().waitFor({ timeout: 60_000 })
      await app.getByText('Welcome to the mobile app setup').waitFor()
      await app.getByRole('button', { name: 'Start' }).click()
      const qr = app.locator('img#qr-canvas')
      // Showing the private key asks for the passphrase unless the sign-in still holds it.
      await withPassphrase(app, qr, PASSPHRASE)
      /** The QR code on screen once it shows page `number` (its header says which). */
      const scan = async (number: number) => {
        const deadline = Date.now() + 30_000
        for (;;) {
          // An image being swapped may not read: look again.
          const text = await readQrCode((await qr.getAttribute('src')) ?? '').catch(() => '')
          if (text && Number.parseInt(text.slice(1, 3), 16) === number) return text
          if (Date.now() > deadline) throw new Error(`the extension never showed page ${number}`)
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
      }
      const first = await scan(0)
      t.is(first[0], '1', 'protocol version 1')
      const meta = JSON.parse(first.slice(3)) as {
        transfer_id: string
        user_id: string
        domain: string
        total_pages: number
        hash: string
        authentication_token: string
      }
      t.like(meta, { user_id: adminRow.id, domain })
      const [created] = await sql<{ status: string; total_pages: number; hash: string }>(
        api,
        'select status, total_pages, hash from transfers where id = ?',
        [meta.transfer_id],
      )
      t.deepEqual(created, { status: 'start', total_pages: meta.total_pages, hash: meta.hash })

      // The phone, with no cookie: only the transfer's token in the path.
      const phone = new TestClient(api.url)
      const turn = (current_page: number, status: string) =>
        phone.json(
          `/mobile/transfers/${meta.transfer_id}/${meta.authentication_token}.json`,
          'PUT',
          { current_page, status },
        )
      let data = ''
      for (let number = 1; number < meta.total_pages; number++) {
        const moved = await turn(number, 'in progress')
        t.is(moved.status, 200, moved.text)
        data += (await scan(number)).slice(3)
      }
      t.is(createHash('sha512').update(data).digest('hex'), meta.hash, 'the phone checks the hash')
      const done = await turn(meta.total_pages - 1, 'complete')
      t.is(done.status, 200, done.text)
      await app.getByText('Transfer complete!').waitFor({ timeout: 30_000 })
      const [completed] = await sql<{ status: string; current_page: number }>(
        api,
        'select status, current_page from transfers where id = ?',
        [meta.transfer_id],
      )
      t.deepEqual(completed, { status: 'complete', current_page: meta.total_pages - 1 })

      // The key the phone received opens with the passphrase and signs the phone in.
      const received = JSON.parse(data) as {
        user_id: string
        fingerprint: string
        armored_key: string
      }
      const privateKey = await openpgp.decryptKey({
        privateKey: await openpgp.readPrivateKey({ armoredKey: received.armored_key }),
        passphrase: PASSPHRASE,
      })
      t.is(privateKey.getFingerprint(), received.fingerprint.toLowerCase())
      const signedIn = await jwtLogin(
        phone,
        received.user_id,
        {
          privateKey,
          publicKey: privateKey.toPublic(),
          armoredPublicKey: privateKey.toPublic().armor(),
          fingerprint: privateKey.getFingerprint().toUpperCase(),
        },
        meta.domain,
      )
      t.is(signedIn.response.status, 200, signedIn.response.text)
      const me = await phone.fetch('/users/me.json', {
        headers: { authorization: `Bearer ${signedIn.answer?.access_token}` },
      })
      t.is(me.json.body.username, ADMIN.username)
    },
  )

  await steps.run(
    'C2. desktop app setup: the account kit downloads, signed by the user, for this server',
    async () => {
      await admin.page.goto(`${domain}/app/settings/desktop`)
      await app.getByText('Welcome to the desktop app setup').waitFor({ timeout: 60_000 })
      const kit = await download(admin, async () => {
        await app.getByRole('button', { name: 'Download your account kit' }).click()
        const prompt = app.locator('.passphrase-entry')
        await prompt.waitFor({ timeout: 5_000 }).catch(() => {})
        if (await prompt.isVisible()) {
          await prompt.locator('#passphrase-entry-form-passphrase').fill(PASSPHRASE)
          await prompt.locator('button[type="submit"]').click()
        }
      })
      t.is(kit.mime, 'application/passbolt')
      const message = await openpgp.readCleartextMessage({
        cleartextMessage: Buffer.from(kit.content.toString('utf8'), 'base64').toString('utf8'),
      })
      const verified = await openpgp.verify({
        message,
        verificationKeys: await openpgp.readKey({ armoredKey: adminRow.armored_key }),
        expectSigned: true,
      })
      await verified.signatures[0].verified
      const account = JSON.parse(String(verified.data)) as Record<string, string>
      t.like(account, { domain, user_id: adminRow.id, username: ADMIN.username })
      const serverKey = (await new TestClient(api.url).fetch('/auth/verify.json')).json.body
        .keydata as string
      t.is(
        (await openpgp.readKey({ armoredKey: account.server_public_armored_key })).getFingerprint(),
        (await openpgp.readKey({ armoredKey: serverKey })).getFingerprint(),
      )
    },
  )

  await steps.run('C3. import: two passwords from a KeePass CSV export', async () => {
    const csv = join(files, 'passwords.csv')
    // KeePass's own columns, so no other format's parser matches as well.
    writeFileSync(
      csv,
      [
        '"Group","Title","Username","Password","URL","Notes"',
        ...IMPORTED.map((p) => `"","${p.name}","${p.username}","${p.password}","${p.url}",""`),
      ].join('\n'),
    )
    await home(admin, domain)
    await app.getByRole('button', { name: 'Create' }).click()
    await app.getByRole('button', { name: 'Import resources' }).click()
    const dialog = app.locator('.dialog').filter({ hasText: 'Import passwords' })
    await dialog.locator('#dialog-import-passwords').setInputFiles(csv)
    await dialog.getByRole('button', { name: 'Import', exact: true }).click()
    const summary = app.locator('.import-dialog-summary')
    await withPassphrase(app, summary, PASSPHRASE)
    await summary.getByText('2').first().waitFor()
    t.regex(await summary.innerText(), /2\s+resources were imported successfully/)
    await app.getByRole('button', { name: 'Ok' }).click()
    for (const password of IMPORTED) await rowOf(app, password.name).waitFor()
    const stored = await sql<{ name: string; username: string; secrets: number }>(
      api,
      `select r.name, r.username,
         (select count(*)::int from secrets s where s.resource_id = r.id) as secrets
       from resources r where not r.deleted order by r.name`,
    )
    t.deepEqual(
      stored,
      IMPORTED.map((p) => ({ name: p.name, username: p.username, secrets: 1 })),
    )
  })

  await steps.run('C4. export: the imported passwords into a KeePass file', async () => {
    await home(admin, domain)
    for (const password of IMPORTED)
      await rowOf(app, password.name).locator('input[type="checkbox"]').check({ force: true })
    await app.locator('.actions .more button, button.more').first().click()
    await app.locator('#export_action').click()
    const dialog = app.locator('.dialog').filter({ hasText: 'Export passwords' })
    await dialog.waitFor()
    // KeePass is the default; the organisation's export policy leaves out the clear-text CSV
    // formats, so the list offers only the other KeePass flavour.
    const format = dialog.locator('#export-format .selected-value')
    t.is((await format.innerText()).trim(), 'kdbx (keepass)')
    await format.click()
    await dialog.locator('#export-format .option').first().waitFor()
    const others = await dialog.locator('#export-format .option').allInnerTexts()
    t.deepEqual(
      others.map((text) => text.trim()),
      ['kdbx (keepassXC & others)'],
    )
    await format.click()
    await dialog.getByRole('button', { name: 'Export', exact: true }).click()
    const credentials = app.locator('.dialog').filter({ hasText: 'Keepass password' })
    await credentials.locator('#password').fill(KDBX_PASSWORD)
    const file = await download(admin, async () => {
      await credentials.getByRole('button', { name: 'Export', exact: true }).click()
      await withPassphrase(
        app,
        app.getByText('The passwords have been exported successfully').first(),
        PASSPHRASE,
      )
    })
    t.deepEqual(file.content.subarray(0, 8), KDBX_SIGNATURE)
  })

  await steps.run(
    'C5. password history: turned on by the administrator, a changed password keeps its previous secret',
    async () => {
      await admin.page.goto(`${domain}/app/administration/secret-history`)
      await app.locator('#secret-history-settings-title').waitFor({ timeout: 60_000 })
      await app.locator('#passwordExpirySettingsToggle').check({ force: true })
      await app.locator('#configure-secret-history-form-length').fill('5')
      await app.getByRole('button', { name: 'Save', exact: true }).click()
      await app
        .getByText(/secret history settings were updated/i)
        .first()
        .waitFor()
      // The screen counts past secrets; the setting counts the current one too.
      t.like(await readOrganizationSetting(api.app.orm.em.fork(), 'secretRevisions'), {
        max_revisions: 6,
      })

      const [changed] = IMPORTED
      const updated = 'Chang3d-after-the-audit'
      await home(admin, domain)
      await rowOf(app, changed.name).getByText(changed.name, { exact: true }).click()
      await app.locator('#edit_action button').click()
      const edit = app.locator('.edit-resource')
      const field = edit.locator('#resource-password')
      await withPassphrase(app, field, PASSPHRASE)
      // The dialog decrypts the current secret into the field: change it once it is there.
      const deadline = Date.now() + 30_000
      while ((await field.inputValue()) !== changed.password) {
        if (Date.now() > deadline) throw new Error('the edit dialog never showed the password')
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
      await field.fill(updated)
      await edit.getByRole('button', { name: 'Save', exact: true }).click()
      await withPassphrase(
        app,
        app.getByText('The resource has been updated successfully'),
        PASSPHRASE,
      )
      const revisions = await sql<{ n: number }>(
        api,
        `select count(*)::int as n from secret_revisions sr join resources r on r.id = sr.resource_id
         where r.name = ?`,
        [changed.name],
      )
      t.is(revisions[0].n, 1, 'the previous secret is kept, for its one reader')

      // From a fresh list: the edited row stays selected, and a click would unselect it.
      await home(admin, domain)
      await rowOf(app, changed.name).getByText(changed.name, { exact: true }).click()
      await app.locator('.actions .more button, button.more').first().click()
      await app.locator('#secret_history_action').click()
      const history = app.locator('.resource-secret-history')
      await history.waitFor()
      const json = history.locator('code.json-object')
      await withPassphrase(app, json, PASSPHRASE)
      t.true((await json.innerText()).includes(updated), 'the current secret is shown first')
      await history
        .locator('.left-sidebar .section-content')
        .nth(1)
        .locator('button')
        .first()
        .click()
      await history.getByText(changed.password).waitFor({ timeout: 30_000 })
      await history.locator('button[type="submit"]').click()
      await history.waitFor({ state: 'detached' })
    },
  )

  let grace!: ExtensionBrowser
  await steps.run('C6. roles: a custom role denied the mobile setup; its user does not see it, and the server refuses it', async () => {
    const { page } = admin
    await page.goto(`${domain}/app/administration/rbacs`)
    await page
      .getByRole('heading', { name: 'Role-Based Access Control' })
      .waitFor({ timeout: 60_000 })
    await page.getByRole('button', { name: 'Add role' }).click()
    await page.locator('#role-name-input').fill(ROLE)
    await page.locator('.dialog').getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByText('The role has been created successfully.').first().waitFor()
    const mobileRow = page.locator('.rbac-row').filter({ hasText: 'Can see mobile setup' })
    // Columns: admin (fixed), user, then the custom role.
    const cell = mobileRow.locator('.flex-item.input').nth(1)
    await cell.locator('.selected-value').click()
    // The list may open below the table's scrolling box, which clips it: the option gets the
    // click event the user's click would send.
    await cell.locator('.option').filter({ hasText: 'Deny' }).dispatchEvent('click')
    await cell.locator('.selected-value').getByText('Deny').waitFor()
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByText('The role-based access control settings were updated.').first().waitFor()
    const rights = await sql<{ role: string; control_function: string }>(
      api,
      `select ro.name as role, r.control_function from rbacs r join roles ro on ro.id = r.role_id
         join ui_actions a on a.id = r.foreign_id where a.name = 'Mobile.transfer' order by ro.name`,
    )
    t.deepEqual(rights, [
      { role: ROLE, control_function: 'Deny' },
      { role: 'user', control_function: 'Allow' },
    ])

    // The administrator creates Grace with the new role; she sets up in her own browser.
    await page.goto(`${domain}/app/users`)
    await app.getByRole('button', { name: 'Create' }).click({ timeout: 60_000 })
    await app.getByRole('button', { name: 'User', exact: true }).click()
    const dialog = app.locator('.user-create-dialog')
    await dialog.locator('#user-first-name-input').fill(GRACE.firstName)
    await dialog.locator('#user-last-name-input').fill(GRACE.lastName)
    await dialog.locator('#user-username-input').fill(GRACE.username)
    await dialog.locator('#select_role .selected-value').click()
    await dialog.locator('#select_role .option').filter({ hasText: ROLE }).click()
    await dialog.locator('.submit-wrapper button[type="submit"]').click()
    await app.getByText('The user has been added successfully').waitFor({ timeout: 30_000 })
    const [created] = await sql<{ role: string }>(
      api,
      'select r.name as role from users u join roles r on r.id = u.role_id where u.username = ?',
      [GRACE.username],
    )
    t.is(created?.role, ROLE)
    grace = await setUp(GRACE, GRACE_PASSPHRASE, 'grace')
    const graceApp = grace.iframe('app')
    await grace.page.goto(`${domain}/app/settings/profile`)
    const menu = graceApp.locator('.navigation-secondary, .sidebar-content-left').first()
    await menu.getByText('Desktop app setup').waitFor({ timeout: 60_000 })
    t.is(await menu.getByText('Mobile setup').count(), 0, 'the denied entry is not shown')
    // The administrator still sees it.
    await admin.page.goto(`${domain}/app/settings/profile`)
    await app
      .locator('.navigation-secondary, .sidebar-content-left')
      .first()
      .getByText('Mobile setup')
      .waitFor({ timeout: 60_000 })
    // The server refuses her a transfer, whatever the client shows.
    const cookie = await cookiesOf(grace, domain)
    const csrf = (await grace.context.cookies(domain)).find((c) => c.name === 'csrfToken')?.value
    const refused = await fetch(`${api.url}/mobile/transfers.json`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': csrf ?? '' },
      body: JSON.stringify({ total_pages: 2, hash: 'a'.repeat(128) }),
    })
    t.is(refused.status, 403)
    t.is(
      (
        await sql<{ n: number }>(
          api,
          'select count(*)::int as n from transfers t join users u on u.id = t.user_id where u.username = ?',
          [GRACE.username],
        )
      )[0].n,
      0,
    )
  }, ['POST /mobile/transfers.json 403'])
  t.log(steps.timings.map((s) => `${s.name}: ${(s.ms / 1000).toFixed(1)} s`).join('\n'))
})
