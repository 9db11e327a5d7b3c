// The official passbolt browser extension (npm, built once by .ci/run) driven in Chromium against
// a freshly started Keyward: real HTTP, real PostgreSQL, real keys, the extension's own code.
// Issue 15's scenario: passwords, folders, a second user in her own browser profile, sharing,
// comments, tags, favourites, administration, sign-out, and the figures with 1,000 passwords.
import test from 'ava'
import {
  type ExtensionBrowser,
  extensionForTest,
  launchExtension,
  linkFromOutbox,
  stepsFor,
} from '../helpers/extension.ts'
import { startSmtp } from '../helpers/smtp.ts'
import { completeSetup, createUserWithCli, signOut } from './accounts.ts'
import { runAdministrationSteps } from './administration.ts'
import { runApiAppAdministrationSteps } from './administration-api-app.ts'
import { runFigureSteps } from './figures.ts'
import { startServerForExtension } from './server.ts'
import { MARGARET, MARGARET_PASSPHRASE, runSharingSteps } from './sharing.ts'
import { runWorkspaceSteps } from './workspace.ts'

const PASSPHRASE = 'correct horse battery staple keyward'
const ADMIN = 'ada@keyward.test'
const ADMIN_PERSON = { username: ADMIN, firstName: 'Ada', lastName: 'Lovelace' }
const SMTP_ACCOUNT = { username: 'keyward-mailer', password: 'smtp passphrase for the e2e test' }

test('an administrator and a new user keep and share passwords with the official extension', async (t) => {
  t.timeout(10 * 60_000)
  const extensionDir = await extensionForTest(t)
  // HTTPS in front (the server helper's TLS front), as in production: passbolt's MFA
  // administration page works only there. This scenario keeps clear (v4) metadata; the
  // encrypted one has its own steps.
  const { api, domain } = await startServerForExtension(t, {
    KEYWARD_METADATA_NEW_ORGANISATIONS: 'v4',
  })
  const smtp = await startSmtp(t, { auth: SMTP_ACCOUNT })
  const browsers: ExtensionBrowser[] = []
  const steps = stepsFor(t, api, () => browsers)

  let admin!: ExtensionBrowser
  await steps.run(
    '1. the administrator sets up their account and reaches the workspace',
    async () => {
      await createUserWithCli(api, ADMIN_PERSON, true)
      const link = await linkFromOutbox(api.app.config.dataDir, ADMIN, 'install')
      t.true(link.startsWith(`${domain}/setup/install/`))
      admin = await launchExtension(t, extensionDir, 'admin')
      browsers.push(admin)
      // The extension signs in with the new key and opens the workspace.
      await completeSetup(admin, link, PASSPHRASE)
      const app = admin.iframe('app')
      t.regex(admin.page.url(), new RegExp(`^${domain}/(app/passwords)?$`))
      await app.getByPlaceholder('Search resource').waitFor()
      await app.getByRole('button', { name: 'All items' }).waitFor()
      // The badge menu names the signed-in administrator.
      await app.locator('.avatar-button').click()
      await app.getByText('Ada Lovelace').waitFor()
      await app.getByText(ADMIN).waitFor()
      await app.locator('.user-profile-close').click()
      // The iframe lays out at the page's 10 px root font: the whole workspace fits 1440 px.
      const box = await admin.page.locator('#passbolt-iframe-app').boundingBox()
      t.is(box?.width, 1440)
    },
  )

  await runWorkspaceSteps(t, { steps, admin, api, domain, passphrase: PASSPHRASE })
  const margaret = await runSharingSteps({
    t,
    steps,
    admin,
    api,
    domain,
    extensionDir,
    adminPassphrase: PASSPHRASE,
    browsers,
  })

  await runAdministrationSteps(t, { steps, admin, api, domain })
  await runApiAppAdministrationSteps(t, {
    steps,
    admin,
    api,
    domain,
    username: ADMIN,
    smtp: { ...SMTP_ACCOUNT, port: smtp.port, received: smtp.received },
  })

  await steps.run('7. the administrator signs out; the workspace URL then asks to sign in', async () => {
    await signOut(admin, domain)
    await admin.page.goto(`${domain}/app/passwords`)
    t.is(admin.page.url(), `${domain}/auth/login?redirect=%2Fapp%2Fpasswords`)
    await admin.iframe('login').getByText('Sign in', { exact: false }).first().waitFor()
    // Straight to the server: Node does not trust the TLS front's test certificate.
    const check = await fetch(`${api.url}/auth/is-authenticated.json`, {
      headers: {
        cookie: (await admin.context.cookies(domain)).map((c) => `${c.name}=${c.value}`).join('; '),
      },
    })
    t.is(check.status, 401)
  }, ['GET /auth/is-authenticated.json 401'])
  await runFigureSteps({
    t,
    steps,
    admin,
    reader: margaret,
    readerPerson: MARGARET,
    readerPassphrase: MARGARET_PASSPHRASE,
    owner: ADMIN_PERSON,
    api,
    domain,
    passphrase: PASSPHRASE,
  })
  t.log(steps.timings.map((s) => `${s.name}: ${(s.ms / 1000).toFixed(1)} s`).join('\n'))
})
