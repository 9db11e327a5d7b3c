// Step 6, second part: the administration pages passbolt's API app renders (served by Keyward
// with the app from passbolt-styleguide). The administrator reaches them from the extension's
// menu, changes one setting on each, finds it kept after a reload, and the setting takes effect.
import type { ExecutionContext } from 'ava'
import type { Locator, Page } from 'playwright-core'
import { readOrganizationMfa } from '../../plugins/mfa/service.ts'
import { readOrganizationSetting } from '../../plugins/settings/index.ts'
import type { TestApi } from '../helpers/api.ts'
import type { ExtensionBrowser, Steps } from '../helpers/extension.ts'
import type { ReceivedMail } from '../helpers/smtp.ts'

export interface ApiAppContext {
  steps: Steps
  admin: ExtensionBrowser
  api: TestApi
  domain: string
  /** The administrator's address (the test mail's default recipient). */
  username: string
  /** A real SMTP server demanding these credentials; what it received. */
  smtp: { port: number; username: string; password: string; received: ReceivedMail[] }
}

/** Waits until `check` holds (the page loads its data after it renders). */
const until = async (check: () => Promise<boolean>, what: string, timeout = 15_000) => {
  const deadline = Date.now() + timeout
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Picks an option of one of the app's drop-downs (`Select`), by its value. */
const choose = async (page: Page, id: string, value: string) => {
  await page.locator(`#${id} .selected-value`).click()
  await page.locator(`#${id} li.option.${value}`).click()
}

const selected = (page: Page, id: string) =>
  page.locator(`#${id} .selected-value .value`).innerText()

const checked = (locator: Locator) => locator.isChecked()

export const runApiAppAdministrationSteps = async (t: ExecutionContext, context: ApiAppContext) => {
  const { steps, admin, api, domain, username, smtp } = context
  const { page } = admin
  const setting = (property: string) => readOrganizationSetting(api.app.orm.em.fork(), property)
  /** Opens a page from the API app's own menu (the app navigates without reloading). */
  const open = async (menu: string, path: string) => {
    await page.locator('.navigation-secondary').getByText(menu, { exact: true }).click()
    await page.waitForURL(`${domain}/app/administration/${path}`)
  }
  const save = async (feedback?: string) => {
    await page.locator('#save-settings').click()
    if (feedback) await page.getByText(feedback).first().waitFor()
  }

  await steps.run(
    '6d. multi-factor authentication: time-based one-time passwords offered',
    async () => {
      // From the extension's administration menu: the extension hands the tab over to the
      // server's page, which the API app renders.
      const app = admin.iframe('app')
      await page.goto(`${domain}/app/administration/password-policies`)
      await app
        .locator('.navigation-secondary, .sidebar-content-left')
        .getByText('Multi Factor Authentication', { exact: true })
        .first()
        .click()
      await page.waitForURL(`${domain}/app/administration/mfa`)
      const totp = page.locator('#totp-provider-toggle-button')
      await totp.waitFor({ state: 'attached' })
      t.false(await checked(totp))
      t.false(await checked(page.locator('#duo-provider-toggle-button')))
      await totp.check({ force: true })
      await save('The multi factor authentication settings for the organization were updated.')
      await page.reload()
      await until(() => checked(page.locator('#totp-provider-toggle-button')), 'TOTP is shown on')
      t.deepEqual((await readOrganizationMfa(api.app.orm.em.fork())).providers, ['totp'])
      // Users are now offered it.
      const select = await fetch(`${api.url}/mfa/setup/select.json`, {
        headers: { cookie: await cookieHeader(admin, domain) },
      })
      t.like((await select.json()).body, { totp: { enabled: true, configured: false } })
    },
  )

  await steps.run(
    '6e. e-mail notifications: creators told of the passwords they create',
    async () => {
      await open('Email Notifications', 'email-notification')
      const toggle = page.locator('#send-password-create-toggle-button')
      await until(async () => !(await checked(toggle)) && (await toggle.isEnabled()), 'loaded')
      await toggle.check({ force: true })
      await save('The email notification settings were updated.')
      await page.reload()
      await until(() => checked(page.locator('#send-password-create-toggle-button')), 'kept')
      t.true(await checked(page.locator('#send-user-create-toggle-button')))
      t.like((await setting('emailNotification')) as object, {
        send_password_create: true,
        send_user_create: true,
      })
    },
  )

  await steps.run(
    '6f. e-mail server: SMTP settings saved and tried with a test e-mail',
    async () => {
      await open('Email server', 'smtp-settings')
      const host = page.locator('#smtp-settings-form-host')
      await until(async () => (await host.inputValue()) === 'localhost', 'the defaults load')
      await choose(page, 'smtp-settings-form-authentication-method', 'username_password')
      await page.locator('#smtp-settings-form-username').fill(smtp.username)
      await page.locator('#smtp-settings-form-password').fill(smtp.password)
      await host.fill('127.0.0.1')
      await page.locator('#smtp-settings-form-port').fill(String(smtp.port))
      await page.locator('#smtp-settings-form-sender-name').fill('Keyward e2e')
      await page.locator('#smtp-settings-form-sender-email').fill('vault@keyward.test')
      await save('The SMTP settings have been saved successfully')
      // The test e-mail goes to the administrator through the form's settings.
      await page.locator('#send-test-email').click()
      const dialog = page.locator('.send-test-email-dialog')
      t.is(await dialog.locator('#recipient').inputValue(), username)
      await dialog.getByRole('button', { name: 'Send' }).click()
      await dialog.getByText('Email sent', { exact: true }).waitFor({ timeout: 30_000 })
      await dialog.locator('button.primary', { hasText: 'Close' }).click()
      const test = smtp.received.find((mail) => /^Subject: Keyward test email/m.test(mail.raw))
      t.truthy(test)
      t.deepEqual(test?.to, [username])
      t.is(test?.user, smtp.username)
      await page.reload()
      await until(async () => (await host.inputValue()) === '127.0.0.1', 'the host is kept')
      t.is(await page.locator('#smtp-settings-form-port').inputValue(), String(smtp.port))
      t.is(await page.locator('#smtp-settings-form-username').inputValue(), smtp.username)
      t.is(await selected(page, 'smtp-settings-form-authentication-method'), 'Username & password')
      const stored = await setting('smtpSettings')
      t.regex(String(stored), /^-----BEGIN PGP MESSAGE-----/)
    },
  )

  await steps.run('6g. self-registration: open to keyward.test, and a new user registers', async () => {
    await open('Self Registration', 'self-registration')
    const toggle = page.locator('#settings-toggle')
    await toggle.waitFor({ state: 'attached' })
    t.false(await checked(toggle))
    const domainInput = page.locator('.self-registration input[type="text"]').first()
    // A click before the page has read its settings is undone when they arrive: click again
    // until the domain field the open setting shows is there.
    await until(async () => {
      if (!(await checked(toggle))) await toggle.check({ force: true, timeout: 2_000 })
      return (await domainInput.count()) > 0
    }, 'the domain field shows')
    await domainInput.fill('keyward.test')
    await save()
    await page.locator('.dialog').getByRole('button', { name: 'Save' }).click()
    await page
      .getByText('The self registration settings for the organization were updated.')
      .first()
      .waitFor()
    await page.reload()
    await until(() => checked(page.locator('#settings-toggle')), 'registration is shown open')
    t.is(
      await page.locator('.self-registration input[type="text"]').first().inputValue(),
      'keyward.test',
    )
    // It takes effect: a guest with such an address registers and is mailed the setup link,
    // through the SMTP settings saved above; another domain is refused.
    const register = (address: string) =>
      fetch(`${api.url}/users/register.json`, {
        method: 'POST',
        // A guest's page sends the CSRF cookie it was given back as a header.
        headers: {
          'content-type': 'application/json',
          cookie: 'csrfToken=e2e-guest',
          'x-csrf-token': 'e2e-guest',
        },
        body: JSON.stringify({
          username: address,
          profile: { first_name: 'Grace', last_name: 'Hopper' },
        }),
      })
    const foreign = await register('mallory@evil.test')
    t.is(foreign.status, 400, await foreign.text())
    const allowed = await register('grace@keyward.test')
    t.is(allowed.status, 200, await allowed.text())
    const invitation = smtp.received.find((mail) => mail.to.includes('grace@keyward.test'))
    t.truthy(invitation)
    t.regex(invitation!.text, new RegExp(`${domain}/setup/install/[0-9a-f-]{36}/[0-9a-f-]{36}`))
  }, ['POST /users/register.json 400'])

  await steps.run('6h. healthcheck: the report shows the server as it is', async () => {
    await open('Passbolt API Status', 'healthcheck')
    for (const line of [
      'The application is able to connect to the database',
      'The public key can be used to encrypt a message',
      'The private key can be used to decrypt and verify a message',
      'The Self Registration plugin is enabled',
      'The SMTP Settings source is: db',
    ])
      await page.getByText(line).first().waitFor()
    t.regex(await page.locator('body').innerText(), /\d+ tables found/)
  })

  await steps.run(
    '6i. internationalisation: the organisation speaks French, then English again',
    async () => {
      await open('Internationalisation', 'internationalization')
      await until(async () => (await selected(page, 'locale-input')) === 'English', 'loaded')
      await choose(page, 'locale-input', 'fr-FR')
      await save()
      await until(async () => (await setting('locale')) === 'fr-FR', 'the locale is saved')
      await page.reload()
      await until(async () => (await selected(page, 'locale-input')) === 'Français', 'kept')
      // Guests and users without a language of their own now get French.
      const settings = await (await fetch(`${api.url}/settings.json`)).json()
      t.is(settings.body.app.locale, 'fr-FR')
      // The page now speaks French; the save button keeps its id.
      await choose(page, 'locale-input', 'en-UK')
      await save()
      await until(async () => (await setting('locale')) === 'en-UK', 'English is saved back')
      // The app ran within the pages' strict CSP: the browser refused nothing.
      t.deepEqual(
        admin.console.filter((line) => /Content Security Policy/i.test(line)),
        [],
      )
    },
  )
}

/** The cookies the browser holds for the server, as a request header. */
const cookieHeader = async (browser: ExtensionBrowser, domain: string) =>
  (await browser.context.cookies(domain)).map((c) => `${c.name}=${c.value}`).join('; ')
