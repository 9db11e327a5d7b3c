// The official passbolt browser extension against a Keyward that starts organisations with
// encrypted metadata (v5): the first administrator's setup generates the metadata key; a v5
// password is shared with a user who got the key from the server as her setup completed, and
// with one who joined in zero-knowledge mode and got it from the administrator; the remaining
// v4 passwords are migrated and the key rotated, and they still read everything; leaving
// zero-knowledge mode gives the server a signed copy of the key. No row holds clear metadata. Real HTTP, PostgreSQL, keys and extension code.
import test from 'ava'
import { type ExtensionBrowser, extensionForTest, stepsFor } from '../helpers/extension.ts'
import { createUserWithCli, setUpInOwnBrowser } from './accounts.ts'
import { runMetadataSteps } from './metadata.ts'
import { startServerForExtension } from './server.ts'

const PASSPHRASE = 'correct horse battery staple keyward'
const ADMIN = { username: 'ada@keyward.test', firstName: 'Ada', lastName: 'Lovelace' }

test('with encrypted metadata on: v5 passwords shared, the key given to later users, v4 migrated, the key rotated, zero-knowledge left', async (t) => {
  t.timeout(10 * 60_000)
  const extensionDir = await extensionForTest(t)
  const { api, domain } = await startServerForExtension(t)
  const browsers: ExtensionBrowser[] = []
  const steps = stepsFor(t, api, () => browsers)
  let admin!: ExtensionBrowser
  await steps.run('M0. the first administrator sets up their account', async () => {
    await createUserWithCli(api, ADMIN, true)
    admin = await setUpInOwnBrowser(t, { api, extensionDir, browsers }, ADMIN, PASSPHRASE, 'admin')
  })
  await runMetadataSteps({
    t,
    steps,
    admin,
    api,
    domain,
    passphrase: PASSPHRASE,
    extensionDir,
    browsers,
  })
  t.log(steps.timings.map((s) => `${s.name}: ${(s.ms / 1000).toFixed(1)} s`).join('\n'))
})
