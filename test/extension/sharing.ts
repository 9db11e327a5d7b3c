// Steps 3, 4b and 5 of the end-to-end scenario: a second user joins (set up from her e-mail in
// her own browser profile), the administrator shares the folder with her and with a group, and
// she signs in, finds the password, reads it, comments, tags and stars it.
import type { ExecutionContext } from 'ava'
import type { FrameLocator } from 'playwright-core'
import type { TestApi } from '../helpers/api.ts'
import {
  type ExtensionBrowser,
  launchExtension,
  linkFromOutbox,
  type Steps,
} from '../helpers/extension.ts'
import { secretInvariantViolations } from '../helpers/vault.ts'
import {
  completeSetup,
  type Person,
  signOut,
  submitPassphrase,
  withPassphrase,
} from './accounts.ts'
import { FOLDER, home, PASSWORD, revealPassword, rowOf, sql } from './workspace.ts'

export const MARGARET: Person = {
  username: 'margaret@keyward.test',
  firstName: 'Margaret',
  lastName: 'Hamilton',
}
export const MARGARET_PASSPHRASE = 'margaret hamilton lands keyward on the moon'
export const GROUP = 'Operations'
const COMMENT = 'Rotated after the migration.'
const TAG = 'databases'

export interface SharingContext {
  t: ExecutionContext
  steps: Steps
  admin: ExtensionBrowser
  api: TestApi
  domain: string
  extensionDir: string
  /** The administrator's, for when the extension asks for it again. */
  adminPassphrase: string
  /** Browsers whose state a failing step saves; the new user's joins it. */
  browsers: ExtensionBrowser[]
}

/** A row of the users workspace's grid. */
const userRow = (app: FrameLocator, text: string) =>
  app.locator('.tableview-content tr, .tableview-content .row').filter({ hasText: text }).first()

/** Types `search` in a people-and-groups autocomplete field and picks the entry for `name`. */
export const pickAro = async (app: FrameLocator, input: string, search: string, name: string) => {
  await app.locator(input).fill(search)
  await app
    .locator('.autocomplete-item')
    .filter({ hasText: name })
    .first()
    .locator('button')
    .click()
}

/** Sets the permission of an ARO's row in the share dialog. */
const setPermission = async (app: FrameLocator, aroName: string, label: string) => {
  const row = app.locator('.share-form .permissions .row').filter({ hasText: aroName }).first()
  await row.locator('.select .selected-value').click()
  await row.locator('.select .option').filter({ hasText: label }).first().click()
}

const fullName = (person: Person) => `${person.firstName} ${person.lastName}`

export const runSharingSteps = async (context: SharingContext) => {
  const { t, steps, admin, api, domain, extensionDir, adminPassphrase, browsers } = context
  const adminApp = admin.iframe('app')
  let margaret!: ExtensionBrowser

  await steps.run(
    '3. the administrator creates a user, who completes setup from her e-mail in her own browser',
    async () => {
      await admin.page.goto(`${domain}/app/users`)
      await adminApp.getByRole('button', { name: 'Create' }).click({ timeout: 60_000 })
      await adminApp.getByRole('button', { name: 'User', exact: true }).click()
      const dialog = adminApp.locator('.user-create-dialog')
      await dialog.locator('#user-first-name-input').fill(MARGARET.firstName)
      await dialog.locator('#user-last-name-input').fill(MARGARET.lastName)
      await dialog.locator('#user-username-input').fill(MARGARET.username)
      await dialog.locator('.submit-wrapper button[type="submit"]').click()
      await adminApp.getByText('The user has been added successfully').waitFor({ timeout: 30_000 })
      await userRow(adminApp, MARGARET.username).waitFor()
      const [created] = await sql<{ active: boolean; role: string }>(
        api,
        `select u.active, r.name as role from users u join roles r on r.id = u.role_id
         where u.username = ? and not u.deleted`,
        [MARGARET.username],
      )
      t.deepEqual(created, { active: false, role: 'user' })
      const link = await linkFromOutbox(api.app.config.dataDir, MARGARET.username, 'install')
      t.true(link.startsWith(`${domain}/setup/install/`))
      margaret = await launchExtension(t, extensionDir, 'margaret')
      browsers.push(margaret)
      await completeSetup(margaret, link, MARGARET_PASSPHRASE)
      const app = margaret.iframe('app')
      await app.locator('.avatar-button').click()
      await app.getByText(fullName(MARGARET)).waitFor()
      await app.locator('.user-profile-close').click()
      // Nothing is shared with her yet.
      t.is(await rowOf(app, PASSWORD.name).count(), 0)
      const [account] = await sql<{ active: boolean; keys: number }>(
        api,
        `select u.active, (select count(*)::int from gpgkeys g where g.user_id = u.id and not g.deleted) as keys
         from users u where u.username = ?`,
        [MARGARET.username],
      )
      t.deepEqual(account, { active: true, keys: 1 })
    },
  )

  await steps.run(
    `4b. the administrator creates the group ${GROUP} and shares the folder with the new user (read) and the group (update)`,
    async () => {
      await admin.page.goto(`${domain}/app/users`)
      await adminApp.getByRole('button', { name: 'Create' }).click({ timeout: 60_000 })
      await adminApp.getByRole('button', { name: 'Group', exact: true }).click()
      await adminApp.locator('#group-name-input').fill(GROUP)
      // The dialog starts with its creator as the group's manager; she joins as a member.
      await adminApp.locator('.edit-group-dialog').getByText('Ada Lovelace').waitFor()
      await pickAro(adminApp, '#user-name-input', 'margaret', fullName(MARGARET))
      await adminApp.locator('.edit-group-dialog').getByText(fullName(MARGARET)).waitFor()
      await adminApp.getByText('You need to click save for the changes to take place.').waitFor()
      await adminApp.locator('.edit-group-dialog button[type="submit"]').click()
      await adminApp
        .getByText('The group has been created successfully.')
        .waitFor({ timeout: 30_000 })
      await adminApp.getByText(GROUP, { exact: true }).first().waitFor()
      const members = await sql<{ username: string; is_admin: boolean }>(
        api,
        `select u.username, gu.is_admin from groups g join groups_users gu on gu.group_id = g.id
         join users u on u.id = gu.user_id where g.name = ? and not g.deleted order by u.username`,
        [GROUP],
      )
      t.deepEqual(members, [
        { username: 'ada@keyward.test', is_admin: true },
        { username: MARGARET.username, is_admin: false },
      ])
      await home(admin, domain)
      const folder = adminApp.locator('.folders-tree').getByText(FOLDER, { exact: true }).first()
      await folder.click({ button: 'right' })
      await adminApp.locator('.contextual-menu button.share').click()
      await adminApp.locator('.share-form').waitFor()
      await pickAro(adminApp, '#share-name-input', 'margaret', fullName(MARGARET))
      await pickAro(adminApp, '#share-name-input', GROUP.slice(0, 4), GROUP)
      await setPermission(adminApp, GROUP, 'can update')
      await adminApp.getByText('Click save to apply your pending changes.').waitFor()
      await adminApp.locator('.share-form button[type="submit"]').click()
      // The extension decrypts the password's secret to encrypt it for the new readers.
      await withPassphrase(
        adminApp,
        adminApp.getByText('The permissions have been changed successfully.'),
        adminPassphrase,
      )
      // The folder and the password in it carry the same permissions; she has the secret.
      const granted = await sql<{ item: string; aro: string; type: number }>(
        api,
        `select coalesce(f.name, r.name) as item, coalesce(u.username, g.name) as aro, p.type
         from permissions p
         left join folders f on f.id = p.aco_foreign_key left join resources r on r.id = p.aco_foreign_key
         left join users u on u.id = p.aro_foreign_key left join groups g on g.id = p.aro_foreign_key
         where coalesce(f.name, r.name) in (?, ?) and coalesce(u.username, g.name) <> ?`,
        [FOLDER, PASSWORD.name, 'ada@keyward.test'],
      )
      const expected = [FOLDER, PASSWORD.name].flatMap((item) => [
        { item, aro: MARGARET.username, type: 1 },
        { item, aro: GROUP, type: 7 },
      ])
      const order = (rows: typeof granted) => rows.map((row) => JSON.stringify(row)).sort()
      t.deepEqual(order(granted), order(expected))
      const [secret] = await sql<{ count: number }>(
        api,
        `select count(*)::int as count from secrets s join users u on u.id = s.user_id
         join resources r on r.id = s.resource_id where u.username = ? and r.name = ?`,
        [MARGARET.username, PASSWORD.name],
      )
      t.is(secret?.count, 1)
      t.deepEqual(await secretInvariantViolations(api), [])
      // The folder's details list its new readers as the server now has them.
      await folder.click()
      const sharedWith = adminApp.locator('.sharedwith')
      await sharedWith.locator('.accordion-header button').click()
      for (const [name, level] of [
        [fullName(MARGARET), 'can read'],
        [GROUP, 'can update'],
      ])
        await sharedWith.locator('li').filter({ hasText: name }).getByText(level).waitFor()
    },
  )

  await steps.run(
    '5. the new user signs in, finds the folder and the password, reveals it, comments, tags and stars it',
    async () => {
      await signOut(margaret, domain)
      const submittedAt = await submitPassphrase(margaret, domain, MARGARET_PASSPHRASE)
      const app = margaret.iframe('app')
      const folder = app.locator('.folders-tree').getByText(FOLDER, { exact: true }).first()
      await folder.waitFor({ timeout: 60_000 })
      await rowOf(app, PASSWORD.name).waitFor()
      t.log(
        `sign-in of the new user, passphrase to listed password: ${Date.now() - submittedAt} ms`,
      )
      await folder.click()
      await rowOf(app, PASSWORD.name).waitFor()
      t.is(await revealPassword(margaret, PASSWORD.name, MARGARET_PASSPHRASE), PASSWORD.secret)
      // The sidebar of the selected password: comments.
      const sidebar = app.locator('.sidebar, .panel.aside').first()
      await sidebar.locator('.detailed-comments .accordion-header button').click()
      const addComment = sidebar.locator('.detailed-comments .section-action')
      if (await addComment.isVisible()) await addComment.click()
      await sidebar.locator('form.comment textarea').fill(COMMENT)
      await sidebar.locator('form.comment .comment-submit').click()
      await app.getByText('The comment has been added successfully').waitFor({ timeout: 30_000 })
      await sidebar.locator('.detailed-comments').getByText(COMMENT).waitFor()
      // Tags.
      await sidebar.locator('.detailed-tags .accordion-header button').click()
      await sidebar.locator('.detailed-tags .section-action').click()
      await sidebar.locator('.tag-editor-input').fill(TAG)
      await sidebar.locator('.tag-editor-input').press('Enter')
      await sidebar.locator('.tag-editor-submit').click()
      await app.getByText('The tags have been updated successfully').waitFor({ timeout: 30_000 })
      await sidebar.locator('.detailed-tags .tag-list-item').getByText(TAG).waitFor()
      // The star in the grid.
      await rowOf(app, PASSWORD.name).locator('button.unfav').click()
      await app.getByText('The password has been added to favorites').waitFor({ timeout: 30_000 })
      await rowOf(app, PASSWORD.name).locator('button.fav').waitFor()
      // The server holds each, as hers.
      const [kept] = await sql<{ comment: string; tag: string; favorite: number }>(
        api,
        `select (select c.content from comments c where c.foreign_key = r.id and c.user_id = u.id) as comment,
           (select t.slug from resources_tags rt join tags t on t.id = rt.tag_id
            where rt.resource_id = r.id and rt.user_id = u.id) as tag,
           (select count(*)::int from favorites f where f.foreign_key = r.id and f.user_id = u.id) as favorite
         from resources r, users u where r.name = ? and u.username = ?`,
        [PASSWORD.name, MARGARET.username],
      )
      t.deepEqual(kept, { comment: COMMENT, tag: TAG, favorite: 1 })
    },
    // Signing out ends with the sign-in page asking whether a session is still open.
    ['GET /auth/is-authenticated.json 401'],
  )
  return margaret
}
