// Step 6 of the end-to-end scenario: the administrator opens each administration page, changes
// one setting, saves, and finds it kept after a reload; the server's state says the same.
import type { ExecutionContext } from 'ava'
import type { FrameLocator } from 'playwright-core'
import { readOrganizationSetting } from '../../plugins/settings/index.ts'
import type { TestApi } from '../helpers/api.ts'
import type { ExtensionBrowser, Steps } from '../helpers/extension.ts'

export interface AdministrationContext {
  steps: Steps
  admin: ExtensionBrowser
  api: TestApi
  domain: string
}

const setting = (api: TestApi, property: string) =>
  readOrganizationSetting(api.app.orm.em.fork(), property)

export const runAdministrationSteps = async (
  t: ExecutionContext,
  context: AdministrationContext,
) => {
  const { steps, admin, api, domain } = context
  const app = admin.iframe('app')
  /** Opens an administration page from the organisation settings menu. */
  const open = async (menu: string, title: string) => {
    await app
      .locator('.navigation-secondary, .sidebar-content-left')
      .getByText(menu, { exact: true })
      .first()
      .click()
    await app.getByRole('heading', { name: title, exact: true }).first().waitFor()
  }
  /** Reloads the page, as a user checking the setting was kept would. */
  const reload = async (title: string) => {
    await admin.page.reload()
    await app.getByRole('heading', { name: title, exact: true }).first().waitFor()
  }
  // The administration workspace, reached as a user does: the gear, then Organisation Settings.
  await admin.page.goto(`${domain}/app/passwords`)
  await app.getByRole('button', { name: 'Create' }).waitFor()
  await app.locator('#workspace-switcher button.switcher').click()
  await app.getByRole('button', { name: 'Organisation Settings' }).click()
  await app.getByText('Resource policies').waitFor()
  const save = async (confirmation: RegExp | string) => {
    await app.getByRole('button', { name: 'Save', exact: true }).click()
    await app.getByText(confirmation).first().waitFor()
  }
  const checked = (frame: FrameLocator, selector: string) => frame.locator(selector).isChecked()

  await steps.run('6a. password policies: a 24-character default length', async () => {
    await open('Password Policy', 'Password Policy')
    await app.getByText('This current configuration source is: default configuration.').waitFor()
    await app.getByText('Passwords settings', { exact: true }).click()
    const length = app.locator('#configure-password-generator-form-length')
    t.is(await length.inputValue(), '18')
    await length.fill('24')
    await save('The password policy settings were updated.')
    await reload('Password Policy')
    await app.getByText('Passwords settings', { exact: true }).click()
    t.is(await length.inputValue(), '24')
    const stored = (await setting(api, 'passwordPolicies')) as {
      password_generator_settings: { length: number }
    }
    t.is(stored.password_generator_settings.length, 24)
  })

  await steps.run('6b. user passphrase policies: 128 bits minimum', async () => {
    await open('User Passphrase Policies', 'User Passphrase Policies')
    await app.locator('#entropy_minimum').fill('4')
    await save('The user passphrase policies were updated.')
    await reload('User Passphrase Policies')
    t.is(await app.locator('#entropy_minimum').inputValue(), '4')
    const stored = (await setting(api, 'userPassphrasePolicies')) as { entropy_minimum: number }
    t.is(stored.entropy_minimum, 128)
  })

  await steps.run('6c. password expiry: turned on', async () => {
    await open('Password Expiry', 'Password Expiry')
    t.false(await checked(app, '#passwordExpirySettingsToggle'))
    await app.locator('#passwordExpirySettingsToggle').check({ force: true })
    await save('The password expiry settings were updated.')
    await reload('Password Expiry')
    t.true(await checked(app, '#passwordExpirySettingsToggle'))
    t.deepEqual((await setting(api, 'passwordExpiry')) as unknown, {
      automatic_expiry: true,
      automatic_update: true,
    })
  })
}
