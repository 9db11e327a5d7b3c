// The official passbolt browser extension in an organisation that already works with clear (v4)
// metadata when encrypted metadata arrives: the administrator follows the administration's
// "Getting started" page, which generates the metadata key (a copy for every active user and
// for the server) and turns v5 on; she migrates the existing passwords from the "Migrate
// metadata" page, and a colleague still reads the shared one. Real HTTP, PostgreSQL, keys and
// extension code.
import test from 'ava'
import {
  type ExtensionBrowser,
  extensionForTest,
  launchExtension,
  linkFromOutbox,
  stepsFor,
} from '../helpers/extension.ts'
import {
  completeSetup,
  createUserWithCli,
  SIGN_OUT_ANSWERS,
  signOut,
  submitPassphrase,
  withPassphrase,
} from './accounts.ts'
import { migrateMetadata } from './metadata.ts'
import { startServerForExtension } from './server.ts'
import { MARGARET, MARGARET_PASSPHRASE, pickAro } from './sharing.ts'
import { createPasswordInDialog, home, PASSWORD, revealPassword, rowOf, sql } from './workspace.ts'

const PASSPHRASE = 'correct horse battery staple keyward'
const ADMIN = { username: 'ada@keyward.test', firstName: 'Ada', lastName: 'Lovelace' }

test('an organisation with v4 data turns encrypted metadata on from the administration and migrates', async (t) => {
  t.timeout(10 * 60_000)
  const extensionDir = await extensionForTest(t)
  const { api, domain } = await startServerForExtension(t)
  const browsers: ExtensionBrowser[] = []
  const steps = stepsFor(t, api, () => browsers)
  let admin!: ExtensionBrowser
  let margaret!: ExtensionBrowser
  const adminApp = () => admin.iframe('app')
  const storedPassword = async () =>
    (
      await sql<{ name: string | null; metadata_key_type: string | null; secrets: number }>(
        api,
        `select r.name, r.metadata_key_type,
         (select count(*)::int from secrets s where s.resource_id = r.id) as secrets
         from resources r where not r.deleted`,
      )
    )[0]

  await steps.run('G0. two accounts set up in an organisation that has not chosen', async () => {
    // Two accounts from the start: the first administrator's setup does not turn v5 on.
    await createUserWithCli(api, ADMIN, true)
    await createUserWithCli(api, MARGARET)
    admin = await launchExtension(t, extensionDir, 'admin')
    margaret = await launchExtension(t, extensionDir, 'margaret')
    browsers.push(admin, margaret)
    await completeSetup(
      admin,
      await linkFromOutbox(api.app.config.dataDir, ADMIN.username, 'install'),
      PASSPHRASE,
    )
    await completeSetup(
      margaret,
      await linkFromOutbox(api.app.config.dataDir, MARGARET.username, 'install'),
      MARGARET_PASSPHRASE,
    )
    t.deepEqual(await sql(api, 'select id from metadata_keys'), [])
    t.deepEqual(
      await sql(
        api,
        // A row holding nothing ('{}') is the lock the key changes take, not a choice.
        `select property from organization_settings
          where property in ('metadataTypes', 'metadataKeys') and value <> '{}'::jsonb`,
      ),
      [],
    )
  })

  await steps.run('G1. the administrator creates a v4 password and shares it', async () => {
    await createPasswordInDialog(admin, domain, PASSWORD)
    const app = adminApp()
    await rowOf(app, PASSWORD.name).waitFor()
    t.like(await storedPassword(), { name: PASSWORD.name, metadata_key_type: null })
    await rowOf(app, PASSWORD.name).click({ button: 'right' })
    await app.locator('.contextual-menu button.share, .contextual-menu #share').first().click()
    await app.locator('.share-form').waitFor()
    await pickAro(
      app,
      '#share-name-input',
      'margaret',
      `${MARGARET.firstName} ${MARGARET.lastName}`,
    )
    await app.getByText('Click save to apply your pending changes.').waitFor()
    await app.locator('.share-form button[type="submit"]').click()
    await withPassphrase(
      app,
      app.getByText('The permissions have been changed successfully.'),
      PASSPHRASE,
    )
    t.is((await storedPassword()).secrets, 2)
  })

  await steps.run(
    'G2. from the administration she enables encrypted metadata: a key for everyone and the server',
    async () => {
      const app = adminApp()
      await admin.page.goto(`${domain}/app/administration/content-types/metadata-getting-started`)
      await app.locator('#enable-encrypted-metadata').waitFor({ timeout: 60_000 })
      t.true(await app.locator('#enable-encrypted-metadata').isChecked(), 'the recommended choice')
      await app.locator('.actions-wrapper button.primary').click()
      await withPassphrase(
        app,
        app.getByText('The metadata encryption strategy has been saved successfully.'),
        PASSPHRASE,
        120_000,
      )
      const holders = await sql<{ holder: string; created_by: string }>(
        api,
        `select coalesce(u.username, 'server') as holder, p.created_by from metadata_private_keys p
         left join users u on u.id = p.user_id order by 1`,
      )
      const [adminRow] = await sql<{ id: string }>(api, 'select id from users where username = ?', [
        ADMIN.username,
      ])
      t.deepEqual(holders, [
        { holder: ADMIN.username, created_by: adminRow.id },
        { holder: MARGARET.username, created_by: adminRow.id },
        { holder: 'server', created_by: adminRow.id },
      ])
      const [types] = await sql<{ value: Record<string, unknown> }>(
        api,
        "select value from organization_settings where property = 'metadataTypes'",
      )
      t.like(types?.value, {
        default_resource_types: 'v5',
        allow_creation_of_v5_resources: true,
        allow_v4_v5_upgrade: true,
      })
      // The password itself is untouched until it is migrated.
      t.like(await storedPassword(), { name: PASSWORD.name, metadata_key_type: null })
    },
  )

  await steps.run('G3. she migrates the existing passwords to v5', async () => {
    await migrateMetadata(admin, domain, PASSPHRASE)
    const migrated = await storedPassword()
    t.deepEqual(migrated, { name: null, metadata_key_type: 'shared_key', secrets: 2 })
    const [texts] = await sql<{ text: string }>(
      api,
      "select string_agg(concat_ws(' ', name, username, uri, description, metadata), ' ') as text from resources",
    )
    for (const clear of [PASSWORD.name, PASSWORD.username, PASSWORD.uri])
      t.false(texts.text.includes(clear), `"${clear}" is stored in clear`)
  })

  await steps.run(
    'G4. her colleague signs in afresh and reads the migrated password',
    async () => {
      await signOut(margaret, domain)
      await submitPassphrase(margaret, domain, MARGARET_PASSPHRASE)
      const app = margaret.iframe('app')
      const row = rowOf(app, PASSWORD.name)
      await withPassphrase(app, row, MARGARET_PASSPHRASE, 60_000)
      t.true((await row.innerText()).includes(PASSWORD.username))
      t.is(await revealPassword(margaret, PASSWORD.name, MARGARET_PASSPHRASE), PASSWORD.secret)
      await home(admin, domain)
      await rowOf(adminApp(), PASSWORD.name).waitFor({ timeout: 60_000 })
    },
    SIGN_OUT_ANSWERS,
  )
  t.log(steps.timings.map((s) => `${s.name}: ${(s.ms / 1000).toFixed(1)} s`).join('\n'))
})
