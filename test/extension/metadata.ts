// Steps of the encrypted metadata scenario: the first administrator's extension sets encrypted
// metadata up as their setup completes (a new organisation starts in v5) and creates a password
// whose name, username and URI reach the server only encrypted; a user who joins later gets the
// metadata key from the server as her setup completes, one who joins in zero-knowledge mode gets
// it from the administrator, and both read the shared password; the administrator migrates the
// remaining v4 passwords, rotates the key and leaves zero-knowledge mode, giving the server a
// copy of the key it can pass on.
import type { ExecutionContext } from 'ava'
import * as openpgp from 'openpgp'
import type { TestApi } from '../helpers/api.ts'
import type { ExtensionBrowser, Steps } from '../helpers/extension.ts'
import {
  createUserWithCli,
  SIGN_OUT_ANSWERS,
  setUpInOwnBrowser,
  signOut,
  submitPassphrase,
  withPassphrase,
} from './accounts.ts'
import { MARGARET, MARGARET_PASSPHRASE, pickAro } from './sharing.ts'
import { createPasswordInDialog, home, PASSWORD, revealPassword, rowOf, sql } from './workspace.ts'

export interface MetadataContext {
  t: ExecutionContext
  steps: Steps
  admin: ExtensionBrowser
  api: TestApi
  domain: string
  passphrase: string
  extensionDir: string
  /** Browsers whose state a failing step saves; the new user's joins it. */
  browsers: ExtensionBrowser[]
}

/** Every text of the item tables, to look for a clear value in any row. */
const itemTexts = (api: TestApi) =>
  sql<{ text: string }>(
    api,
    `select concat_ws(' ', name, username, uri, description, metadata) as text from resources
     union all select concat_ws(' ', name, metadata) from folders`,
  )

export const runMetadataSteps = async (context: MetadataContext) => {
  const { t, steps, admin, api, domain, passphrase } = context
  const app = admin.iframe('app')

  await steps.run(
    'M1. setting up the first administrator turned encrypted metadata on',
    async () => {
      const keys = await sql<{
        id: string
        fingerprint: string
        expired: unknown
        copies: string[]
      }>(
        api,
        `select k.id, k.fingerprint, k.expired,
         array(select coalesce(p.user_id::text, 'server') from metadata_private_keys p
               where p.metadata_key_id = k.id order by 1) as copies
       from metadata_keys k`,
      )
      t.is(keys.length, 1)
      t.is(keys[0].expired, null)
      const [adminRow] = await sql<{ id: string }>(
        api,
        "select id from users where username like 'ada@%'",
      )
      t.true(keys[0].copies.includes(adminRow.id), 'the administrator holds a copy')
      const [types] = await sql<{ value: Record<string, unknown> }>(
        api,
        "select value from organization_settings where property = 'metadataTypes'",
      )
      t.like(types?.value, { default_resource_types: 'v5', allow_creation_of_v5_resources: true })
    },
  )

  await steps.run(
    'M2. the administrator creates a v5 password: the server holds no clear metadata',
    async () => {
      await createPasswordInDialog(admin, domain, PASSWORD)
      await rowOf(app, PASSWORD.name).waitFor()
      const [stored] = await sql<{ metadata_key_type: string; slug: string; name: null }>(
        api,
        `select r.metadata_key_type, t.slug, r.name from resources r
         join resource_types t on t.id = r.resource_type_id where not r.deleted`,
      )
      t.is(stored.name, null)
      t.true(stored.slug.startsWith('v5-'), stored.slug)
      t.true(['user_key', 'shared_key'].includes(stored.metadata_key_type))
      for (const { text } of await itemTexts(api))
        for (const clear of [PASSWORD.name, PASSWORD.username, PASSWORD.uri])
          t.false(text.includes(clear), `"${clear}" is stored in clear`)
      // After a reload the extension decrypts what the server lists.
      await home(admin, domain)
      await rowOf(app, PASSWORD.name).waitFor({ timeout: 60_000 })
      t.true((await rowOf(app, PASSWORD.name).innerText()).includes(PASSWORD.username))
      t.is(await revealPassword(admin, PASSWORD.name, passphrase), PASSWORD.secret)
    },
  )

  await runSharingSteps(context)
}

const fullName = `${MARGARET.firstName} ${MARGARET.lastName}`

/** A user's copies of metadata keys, oldest first, with who wrote them. */
const copiesOf = (api: TestApi, username: string) =>
  sql<{ created_by: string | null; modified_by: string | null }>(
    api,
    `select p.created_by, p.modified_by from metadata_private_keys p join users u on u.id = p.user_id
     where u.username = ? order by p.created`,
    [username],
  )

/**
 * Opens a user's workspace until it lists `name`, answering the passphrase prompt the extension
 * shows once the passphrase it kept from the sign-in has expired and it needs the metadata keys.
 */
const openWorkspace = async (
  browser: ExtensionBrowser,
  domain: string,
  passphrase: string,
  name: string,
) => {
  await browser.page.goto(`${domain}/app/passwords`)
  const app = browser.iframe('app')
  await withPassphrase(app, rowOf(app, name), passphrase, 120_000)
}

const GRACE = { username: 'grace@keyward.test', firstName: 'Grace', lastName: 'Hopper' }
const GRACE_PASSPHRASE = 'grace hopper finds the moth in keyward'

/**
 * A call from the administrator's signed-in page, as the web application makes it (its session
 * cookie and the CSRF token the page can read); answers the HTTP status.
 */
const callAs = (browser: ExtensionBrowser, path: string, body: unknown) =>
  browser.page.evaluate(
    async ({ path, body }) => {
      const csrf = document.cookie
        .split('; ')
        .find((cookie) => cookie.startsWith('csrfToken='))
        ?.slice('csrfToken='.length)
      const response = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf ?? '' },
        body: JSON.stringify(body),
      })
      return response.status
    },
    { path, body },
  )

const runSharingSteps = async ({
  t,
  steps,
  admin,
  api,
  domain,
  passphrase,
  extensionDir,
  browsers,
}: MetadataContext) => {
  const adminApp = admin.iframe('app')
  let margaret!: ExtensionBrowser

  let grace!: ExtensionBrowser
  /** A user made with the CLI who completes her setup in a browser of her own. */
  const join = async (person: typeof GRACE, personPassphrase: string) => {
    await createUserWithCli(api, person)
    return setUpInOwnBrowser(t, { api, extensionDir, browsers }, person, personPassphrase)
  }

  await steps.run(
    'M3. a new user sets up her account; the server gives her the metadata key',
    async () => {
      margaret = await join(MARGARET, MARGARET_PASSPHRASE)
      const copies = await copiesOf(api, MARGARET.username)
      t.is(copies.length, 1)
      t.is(copies[0].created_by, null, 'the server wrote her copy')
    },
  )

  await steps.run(
    'M4. in zero-knowledge mode a new user lacks the key until the administrator shares it',
    async () => {
      await home(admin, domain)
      t.is(
        await callAs(admin, '/metadata/keys/settings.json', {
          allow_usage_of_personal_keys: true,
          zero_knowledge_key_share: true,
        }),
        200,
      )
      t.deepEqual(
        await sql(api, 'select id from metadata_private_keys where user_id is null'),
        [],
        'the server no longer holds a copy',
      )
      grace = await join(GRACE, GRACE_PASSPHRASE)
      t.deepEqual(await copiesOf(api, GRACE.username), [])
      await admin.page.goto(`${domain}/app/users`)
      const row = adminApp
        .locator('.tableview-content tr, .tableview-content .row')
        .filter({ hasText: GRACE.username })
        .first()
      await row.waitFor({ timeout: 60_000 })
      await row.click({ button: 'right' })
      await adminApp.locator('#share-metadata-keys').first().click()
      await adminApp.getByRole('button', { name: 'Share', exact: true }).click()
      await withPassphrase(
        adminApp,
        adminApp.getByText('Metadata keys have been shared', { exact: false }),
        passphrase,
      )
      const [adminRow] = await sql<{ id: string }>(
        api,
        "select id from users where username like 'ada@%'",
      )
      t.like(await copiesOf(api, GRACE.username), [{ created_by: adminRow.id }])
    },
  )

  await steps.run('M5. the administrator shares the password with both', async () => {
    await home(admin, domain)
    await rowOf(adminApp, PASSWORD.name).click({ button: 'right' })
    await adminApp.locator('.contextual-menu button.share, .contextual-menu #share').first().click()
    await adminApp.locator('.share-form').waitFor()
    // The dialog may first ask for the passphrase, to read the password's metadata.
    await withPassphrase(
      adminApp,
      adminApp.locator('#share-name-input:not([disabled])'),
      passphrase,
    )
    await pickAro(adminApp, '#share-name-input', 'margaret', fullName)
    await pickAro(adminApp, '#share-name-input', 'grace', `${GRACE.firstName} ${GRACE.lastName}`)
    await adminApp.getByText('Click save to apply your pending changes.').waitFor()
    await adminApp.locator('.share-form button[type="submit"]').click()
    await withPassphrase(
      adminApp,
      adminApp.getByText('The permissions have been changed successfully.'),
      passphrase,
    )
    const [stored] = await sql<{ metadata_key_type: string; secrets: number }>(
      api,
      `select r.metadata_key_type, (select count(*)::int from secrets s where s.resource_id = r.id) as secrets
       from resources r where not r.deleted`,
    )
    t.deepEqual(stored, { metadata_key_type: 'shared_key', secrets: 3 })
    for (const { text } of await itemTexts(api))
      t.false(text.includes(PASSWORD.name), 'the name is stored in clear')
  })

  await steps.run(
    'M6. each opens her workspace and reads the name, the URI and the password',
    async () => {
      for (const [browser, personPassphrase] of [
        [margaret, MARGARET_PASSPHRASE],
        [grace, GRACE_PASSPHRASE],
      ] as const) {
        // Grace's session began before the key was shared with her: the extension keeps the keys
        // it read at sign-in for the session, so, as after a rotation, she signs in afresh.
        if (browser === grace) {
          await signOut(grace, domain)
          await submitPassphrase(grace, domain, GRACE_PASSPHRASE)
          await rowOf(grace.iframe('app'), PASSWORD.name).waitFor({ timeout: 60_000 })
        } else await openWorkspace(browser, domain, personPassphrase, PASSWORD.name)
        const row = rowOf(browser.iframe('app'), PASSWORD.name)
        t.true((await row.innerText()).includes(PASSWORD.username))
        t.true((await row.innerText()).includes(PASSWORD.uri.replace(/^https:\/\//, '')))
        t.is(await revealPassword(browser, PASSWORD.name, personPassphrase), PASSWORD.secret)
      }
    },
    SIGN_OUT_ANSWERS,
  )

  await steps.run('M7. the administrator migrates the remaining v4 passwords to v5', async () => {
    await seedV4Passwords(api, ['ada@keyward.test', MARGARET.username], LEGACY)
    await migrateMetadata(admin, domain, passphrase)
    const rows = await sql<{ clear: number; v5: number }>(
      api,
      `select count(*) filter (where name is not null or username is not null or uri is not null)::int as clear,
                count(*) filter (where metadata is not null and metadata_key_type = 'shared_key')::int as v5
         from resources where not deleted`,
    )
    t.deepEqual(rows, [{ clear: 0, v5: LEGACY.length + 1 }])
    for (const { text } of await itemTexts(api))
      for (const name of LEGACY) t.false(text.includes(name), `"${name}" is stored in clear`)
    // She reads them after the rotation (next step), from a fresh sign-in.
  })

  await steps.run(
    'M8. the administrator rotates the metadata key; she still reads every password',
    async () => {
      const [before] = await sql<{ id: string }>(api, 'select id from metadata_keys')
      await admin.page.goto(`${domain}/app/administration/content-types/metadata-key`)
      const rotate = adminApp.getByRole('button', { name: 'Rotate key' }).first()
      const confirm = adminApp.locator('.dialog').getByRole('button', { name: 'Rotate key' })
      const prompt = adminApp.locator('.passphrase-entry')
      await rotate.waitFor({ timeout: 60_000 })
      // In zero-knowledge mode the page asks for the passphrase (to read the metadata keys), as
      // it opens or on the click: answer it wherever it comes, until the confirmation shows.
      for (let attempt = 0; attempt < 4 && !(await confirm.isVisible()); attempt++) {
        if (await prompt.isVisible()) {
          await prompt.locator('#passphrase-entry-form-passphrase').fill(passphrase)
          await prompt.locator('button[type="submit"]').click()
          await prompt.waitFor({ state: 'hidden', timeout: 60_000 })
        } else await rotate.click({ timeout: 10_000 }).catch(() => {})
        await confirm
          .or(prompt)
          .first()
          .waitFor({ timeout: 30_000 })
          .catch(() => {})
      }
      await confirm.click()
      await withPassphrase(
        adminApp,
        adminApp.getByText('The metadata key has been rotated.'),
        passphrase,
        120_000,
      )
      const keys = await sql<{ id: string; expired: unknown; deleted: unknown }>(
        api,
        'select id, expired, deleted from metadata_keys order by created',
      )
      t.is(keys.length, 2)
      t.is(keys[0].id, before.id)
      t.truthy(keys[0].expired, 'the old key is expired')
      t.is(keys[1].expired, null)
      const onKeys = await sql<{ metadata_key_id: string }>(
        api,
        "select distinct metadata_key_id from resources where not deleted and metadata_key_type = 'shared_key'",
      )
      t.deepEqual(onKeys, [{ metadata_key_id: keys[1].id }])
      const holders = await sql<{ username: string }>(
        api,
        `select u.username from metadata_private_keys p join users u on u.id = p.user_id
         where p.metadata_key_id = ? order by u.username`,
        [keys[1].id],
      )
      t.deepEqual(
        holders.map((row) => row.username),
        ['ada@keyward.test', GRACE.username, MARGARET.username],
        'everyone holds the new key',
      )
      // A fresh sign-in: the session she has keeps the old key only and lists nothing after the
      // rotation.
      await signOut(margaret, domain)
      await submitPassphrase(margaret, domain, MARGARET_PASSPHRASE)
      const app = margaret.iframe('app')
      for (const name of [PASSWORD.name, ...LEGACY])
        await rowOf(app, name).waitFor({ timeout: 60_000 })
      t.is(await revealPassword(margaret, PASSWORD.name, MARGARET_PASSPHRASE), PASSWORD.secret)
    },
    SIGN_OUT_ANSWERS,
  )

  await steps.run(
    'M9. the administrator leaves zero-knowledge mode: the server gets a copy it can pass on',
    async () => {
      await admin.page.goto(`${domain}/app/administration/content-types/metadata-key`)
      const userFriendly = adminApp.locator('#disableZeroKnowledgeKeyShareInput')
      // The page may first ask for the passphrase, to read the metadata keys.
      await withPassphrase(adminApp, userFriendly, passphrase, 60_000)
      await userFriendly.check()
      await adminApp.locator('.actions-wrapper button.primary').click()
      await withPassphrase(
        adminApp,
        adminApp.getByText('The metadata key settings were updated.'),
        passphrase,
        120_000,
      )
      const [settings] = await sql<{ value: Record<string, unknown> }>(
        api,
        "select value from organization_settings where property = 'metadataKeys'",
      )
      t.like(settings?.value, { zero_knowledge_key_share: false })
      const [adminRow] = await sql<{ id: string; armored_key: string }>(
        api,
        `select u.id, g.armored_key from users u join gpgkeys g on g.user_id = u.id and not g.deleted
         where u.username = 'ada@keyward.test'`,
      )
      const copies = await sql<{ data: string; created_by: string; fingerprint: string }>(
        api,
        `select p.data, p.created_by, k.fingerprint from metadata_private_keys p
         join metadata_keys k on k.id = p.metadata_key_id
         where p.user_id is null and k.expired is null and k.deleted is null`,
      )
      t.is(copies.length, 1, 'one server copy, of the active key')
      t.is(copies[0].created_by, adminRow.id)
      // What the server will pass on: its own key decrypts it, the administrator signed it, and
      // it is the active key's private half.
      const { data, signatures } = await openpgp.decrypt({
        message: await openpgp.readMessage({ armoredMessage: copies[0].data }),
        decryptionKeys: api.app.serverKey.privateKey,
        verificationKeys: await openpgp.readKey({ armoredKey: adminRow.armored_key }),
        expectSigned: true,
      })
      t.true(await signatures[0].verified)
      const clear = JSON.parse(String(data)) as { armored_key: string }
      const half = await openpgp.readPrivateKey({ armoredKey: clear.armored_key })
      t.is(half.getFingerprint().toUpperCase(), copies[0].fingerprint.toUpperCase())
    },
  )
}

const LEGACY = ['Legacy mail server', 'Legacy wiki']

/** The administration's "Migrate metadata" page, run to its end: every v4 item becomes v5. */
export const migrateMetadata = async (
  admin: ExtensionBrowser,
  domain: string,
  passphrase: string,
) => {
  const adminApp = admin.iframe('app')
  await admin.page.goto(`${domain}/app/administration/migrate-metadata`)
  await adminApp.getByText('Migrate metadata', { exact: true }).first().waitFor({ timeout: 60_000 })
  await adminApp.locator('.actions-wrapper button.primary').click()
  await adminApp.locator('.dialog').getByRole('button', { name: 'Migrate', exact: true }).click()
  await withPassphrase(
    adminApp,
    adminApp.getByText('The encrypted metadata were migrated.'),
    passphrase,
    120_000,
  )
}

/**
 * v4 passwords from before the organisation encrypted its metadata, readable by these users
 * (the first owns them), each with a secret encrypted to each user's key.
 */
const seedV4Passwords = async (api: TestApi, usernames: string[], names: string[]) => {
  const users = await sql<{ id: string; username: string; armored_key: string }>(
    api,
    `select u.id, u.username, g.armored_key from users u join gpgkeys g on g.user_id = u.id and not g.deleted
     where u.username in (${usernames.map(() => '?').join(', ')})`,
    usernames,
  )
  const ordered = usernames.map((username) => users.find((user) => user.username === username)!)
  for (const name of names) {
    const [{ id }] = await sql<{ id: string }>(
      api,
      `insert into resources (id, name, username, uri, resource_type_id, created_by, modified_by)
       values (gen_random_uuid(), ?, 'legacy', 'https://legacy.example.com', 'a28a04cd-6f53-518a-967c-9963bf9cec51', ?, ?)
       returning id`,
      [name, ordered[0].id, ordered[0].id],
    )
    for (const [index, user] of ordered.entries()) {
      const data = await openpgp.encrypt({
        message: await openpgp.createMessage({
          text: JSON.stringify({ password: 'old', description: '' }),
        }),
        encryptionKeys: await openpgp.readKey({ armoredKey: user.armored_key }),
      })
      await sql(
        api,
        `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
         values (gen_random_uuid(), 'Resource', ?, 'User', ?, ?)`,
        [id, user.id, index === 0 ? 15 : 1],
      )
      await sql(
        api,
        'insert into secrets (id, user_id, resource_id, data) values (gen_random_uuid(), ?, ?, ?)',
        [user.id, id, data],
      )
      await sql(
        api,
        `insert into folders_relations (id, foreign_model, foreign_id, user_id)
         values (gen_random_uuid(), 'Resource', ?, ?)`,
        [id, user.id],
      )
    }
  }
}
