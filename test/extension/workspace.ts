// Steps 2 and 4a of the end-to-end scenario, in the password workspace: the administrator creates a
// password, reveals it, files it in a folder; the server's state is checked beside what the
// user sees.
import type { ExecutionContext } from 'ava'
import type { FrameLocator } from 'playwright-core'
import type { TestApi } from '../helpers/api.ts'
import type { ExtensionBrowser, Steps } from '../helpers/extension.ts'
import { withPassphrase } from './accounts.ts'

export interface WorkspaceContext {
  steps: Steps
  admin: ExtensionBrowser
  api: TestApi
  domain: string
  /** The administrator's, for when the extension asks for it again. */
  passphrase: string
}

export const PASSWORD = {
  name: 'Staging database',
  uri: 'https://db.staging.example.com',
  username: 'ops',
  secret: 's3cret-Keyward-42',
}
export const FOLDER = 'Infrastructure'

export const sql = async <T>(api: TestApi, query: string, params: unknown[] = []) =>
  (await api.app.orm.em.fork().getConnection().execute(query, params)) as T[]

/** Opens the workspace home and waits for its grid. */
export const home = async (browser: ExtensionBrowser, domain: string) => {
  await browser.page.goto(`${domain}/app/passwords`)
  await browser.iframe('app').getByRole('button', { name: 'Create' }).waitFor({ timeout: 60_000 })
}

/**
 * Creates a password through the workspace's Create dialog and waits for the extension to say it
 * was added.
 */
export const createPasswordInDialog = async (
  browser: ExtensionBrowser,
  domain: string,
  password: { name: string; uri: string; username: string; secret: string },
) => {
  const app = browser.iframe('app')
  await home(browser, domain)
  await app.getByRole('button', { name: 'Create' }).click()
  await app.getByRole('button', { name: 'Password', exact: true }).first().click()
  const dialog = app.locator('.create-resource')
  await dialog.locator('#resource-name').fill(password.name)
  await dialog.locator('#resource-uri').fill(password.uri)
  await dialog.locator('#resource-username').fill(password.username)
  await dialog.locator('#resource-password').fill(password.secret)
  await dialog.getByRole('button', { name: 'Create', exact: true }).click()
  await app.getByText('The resource has been added successfully').waitFor({ timeout: 30_000 })
}

/** The grid row of a resource. */
export const rowOf = (app: FrameLocator, name: string) =>
  app.locator('.tableview-content tr, .tableview-content .row').filter({ hasText: name }).first()

/** Selects a resource and reveals its password in the details sidebar; returns what it shows. */
export const revealPassword = async (
  browser: ExtensionBrowser,
  name: string,
  passphrase: string,
) => {
  const app = browser.iframe('app')
  // On its name: a click in the password cell copies the password instead of selecting.
  await rowOf(app, name).getByText(name, { exact: true }).click()
  const value = app.locator('.sidebar .password-value, .panel.aside .password-value').first()
  await value.waitFor()
  // The eye appears once the sidebar knows the user may preview (the settings' previewPassword).
  await value.hover()
  await value.locator('.password-view').click()
  const secret = value.locator('.secret-password')
  await withPassphrase(app, value.locator('.secret-password:not(.secret-copy)'), passphrase, 30_000)
  await secret.getByText('Copy to clipboard').waitFor({ state: 'detached', timeout: 30_000 })
  return (await secret.innerText()).replace(/\s+/g, '')
}

export const runWorkspaceSteps = async (t: ExecutionContext, context: WorkspaceContext) => {
  const { steps, admin, api, domain, passphrase } = context
  const app = admin.iframe('app')

  await steps.run(
    '2. the administrator creates a password, sees it listed, opens it and reveals it',
    async () => {
      await createPasswordInDialog(admin, domain, PASSWORD)
      const row = rowOf(app, PASSWORD.name)
      await row.waitFor()
      t.true((await row.innerText()).includes(PASSWORD.username))
      // The server holds the resource in clear v4 metadata and one secret, for its creator.
      const [stored] = await sql<{ username: string; secrets: number }>(
        api,
        `select r.username, (select count(*)::int from secrets s where s.resource_id = r.id) as secrets
         from resources r where r.name = ? and not r.deleted`,
        [PASSWORD.name],
      )
      t.deepEqual(stored, { username: PASSWORD.username, secrets: 1 })
      // After a reload the list comes from the server, not from what the page just made.
      await home(admin, domain)
      t.is(await revealPassword(admin, PASSWORD.name, passphrase), PASSWORD.secret)
    },
  )

  await steps.run(
    '4a. the administrator creates a folder and drags the password into it',
    async () => {
      await home(admin, domain)
      await app.getByRole('button', { name: 'Create' }).click()
      await app.getByRole('button', { name: 'Folder', exact: true }).click()
      await app.locator('#folder-name-input').fill(FOLDER)
      await app.locator('.dialog button[type="submit"]').click()
      await app.getByText('The folder has been added successfully').waitFor({ timeout: 30_000 })
      const folder = app.locator('.folders-tree').getByText(FOLDER, { exact: true }).first()
      await folder.waitFor()
      // The new folder opens (a drag started before would lose its rows); the password is at
      // the root, listed from Home.
      await admin.page.waitForURL(/\/app\/folders\/view\//)
      await app.getByText('No passwords in this folder yet.').waitFor()
      await app.getByRole('button', { name: 'Home' }).click()
      await admin.page.waitForURL(new RegExp(`^${domain}/app/passwords$`))
      await rowOf(app, PASSWORD.name).dragTo(folder)
      await rowOf(app, PASSWORD.name).getByText(FOLDER).waitFor({ timeout: 30_000 })
      const [placed] = await sql<{ parent: string }>(
        api,
        `select f.name as parent from folders_relations fr
         join resources r on r.id = fr.foreign_id join folders f on f.id = fr.folder_parent_id
         where r.name = ?`,
        [PASSWORD.name],
      )
      t.is(placed?.parent, FOLDER)
      // Opening the folder lists the password inside it.
      await folder.click()
      await rowOf(app, PASSWORD.name).waitFor()
    },
  )
}
