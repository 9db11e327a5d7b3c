// Accounts in the end-to-end scenario: users made with the server's CLI, setup completed from the
// e-mailed link in a user's own browser profile, sign-in and sign-out as a user does them.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { ExecutionContext } from 'ava'
import type { FrameLocator, Locator } from 'playwright-core'
import { FIXTURE_KEYS_ENV, type TestApi } from '../helpers/api.ts'
import { type ExtensionBrowser, launchExtension, linkFromOutbox } from '../helpers/extension.ts'

const bin = fileURLToPath(new URL('../../bin/api.js', import.meta.url))

export interface Person {
  username: string
  firstName: string
  lastName: string
}

/** `api user create`, as an operator runs it on the server; it mails the setup link. */
export const createUserWithCli = async (api: TestApi, person: Person, admin = false) => {
  await promisify(execFile)(
    process.execPath,
    [
      bin,
      'user',
      'create',
      '--username',
      person.username,
      '--first-name',
      person.firstName,
      '--last-name',
      person.lastName,
      ...(admin ? ['--admin'] : []),
    ],
    {
      env: {
        ...process.env,
        ...FIXTURE_KEYS_ENV,
        DATABASE_URL: api.app.database.url,
        KEYWARD_DATA_DIR: api.app.config.dataDir,
        KEYWARD_APP_URL: api.app.config.appUrl,
        KEYWARD_LOG_LEVEL: 'silent',
      },
    },
  )
}

/**
 * Follows the setup link in the user's browser: passphrase, key generation, recovery kit,
 * security token; the extension then signs in and opens the workspace.
 */
export const completeSetup = async (
  browser: ExtensionBrowser,
  link: string,
  passphrase: string,
) => {
  await browser.page.goto(link)
  const setup = browser.iframe('setup')
  // The extension greets a first install only when its install handler finds the setup tab
  // already open (it marks the URL `first-install`); on a loaded machine it may run first.
  const welcome = setup.getByText('Congratulations! Passbolt extension has been installed.')
  const choose = setup.getByText('Welcome to Passbolt, please select a passphrase!')
  await welcome.or(choose).first().waitFor({ timeout: 60_000 })
  if (await welcome.isVisible()) await setup.getByRole('button', { name: 'Next' }).click()
  await choose.waitFor()
  await setup.locator('#passphrase-input').fill(passphrase)
  await setup.getByRole('button', { name: 'Next' }).click()
  // Key generation takes a few seconds.
  await setup.getByText('I safely stored my recovery kit.').click({ timeout: 60_000 })
  await setup.getByRole('button', { name: 'Next' }).click()
  await setup.getByText('Pick a color and enter three characters.').waitFor()
  await setup.getByRole('button', { name: 'Next' }).click()
  await browser.iframe('app').getByRole('button', { name: 'Create' }).waitFor({ timeout: 60_000 })
}

/**
 * What a step that signs out may be answered besides its own calls: the sign-in page's check,
 * and the session keys the page signed out of was still saving of what it decrypted, a call that
 * may arrive after the session ended.
 */
export const SIGN_OUT_ANSWERS = [
  'GET /auth/is-authenticated.json 401',
  'POST /metadata/session-keys.json 401',
]

/**
 * Signs out from the badge menu of the password workspace and waits for the sign-in form (the
 * extension loses track of a tab that navigates again before its form is in).
 */
export const signOut = async (browser: ExtensionBrowser, domain: string) => {
  const app = browser.iframe('app')
  await browser.page.goto(`${domain}/app/passwords`)
  await app.getByRole('button', { name: 'Create' }).waitFor({ timeout: 60_000 })
  await app.locator('.avatar-button').click()
  await app.getByRole('button', { name: 'Sign out' }).click()
  await browser.page.waitForURL(new RegExp(`^${domain}/auth/login`))
  await browser.iframe('login').locator('#passphrase').waitFor({ timeout: 60_000 })
}

/**
 * Waits for `done`, typing the passphrase first if the extension asks for it: a sign-in keeps
 * the passphrase 60 seconds unless the user ticks "remember", then decrypting asks again.
 */
export const withPassphrase = async (
  app: FrameLocator,
  done: Locator,
  passphrase: string,
  timeout = 60_000,
) => {
  const prompt = app.locator('.passphrase-entry')
  await done.or(prompt).first().waitFor({ timeout })
  if (!(await prompt.isVisible())) return
  await prompt.locator('#passphrase-entry-form-passphrase').fill(passphrase)
  await prompt.locator('button[type="submit"]').click()
  await done.waitFor({ timeout })
}

/**
 * Types the passphrase on the sign-in page and submits it; resolves at the submission, with
 * its time, so the caller measures what follows.
 */
export const submitPassphrase = async (
  browser: ExtensionBrowser,
  domain: string,
  passphrase: string,
) => {
  if (!browser.page.url().startsWith(`${domain}/auth/login`))
    await browser.page.goto(`${domain}/auth/login`)
  const login = browser.iframe('login')
  await login.locator('#passphrase').fill(passphrase, { timeout: 60_000 })
  const submittedAt = Date.now()
  await login.getByRole('button', { name: 'Sign in', exact: true }).click()
  return submittedAt
}

/**
 * A user already made (with the CLI, say) completes her setup from the mailed link, in a browser
 * profile of her own, added to `browsers` so failing steps capture it.
 */
export const setUpInOwnBrowser = async (
  t: ExecutionContext,
  scenario: { api: TestApi; extensionDir: string; browsers: ExtensionBrowser[] },
  person: Person,
  passphrase: string,
  label = person.firstName.toLowerCase(),
) => {
  const browser = await launchExtension(t, scenario.extensionDir, label)
  scenario.browsers.push(browser)
  const link = await linkFromOutbox(scenario.api.app.config.dataDir, person.username, 'install')
  await completeSetup(browser, link, passphrase)
  return browser
}
