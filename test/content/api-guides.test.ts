// The API guides' runnable examples (each `.mjs` code block of content/docs/api/) run as they are
// printed, with Node.js, against a fresh server, and do what the guide says they do.
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import test from 'ava'
import * as openpgp from 'openpgp'
import { startTestApi } from '../helpers/api.ts'
import { createActiveUser } from '../helpers/users.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const guides = join(root, 'content/docs/api')

/** Every ```js title="name.mjs" block of the API guides, by name. */
const examples = new Map(
  readdirSync(guides)
    .filter((name) => name.endsWith('.md'))
    .flatMap((name) =>
      [
        ...readFileSync(join(guides, name), 'utf8').matchAll(
          /^```js title="([\w-]+\.mjs)"\n([\s\S]*?)^```$/gm,
        ),
      ].map((match) => [match[1], match[2]] as const),
    ),
)

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/** Runs one example in a folder that resolves `openpgp` from the repository, as an install would. */
const run = async (t: import('ava').ExecutionContext, name: string) => {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const api = await startTestApi(t, {
    env: { KEYWARD_PORT: String(port), KEYWARD_APP_URL: `${url}/` },
  })
  t.is(api.url, url)
  const user = await createActiveUser(api, 'ada@keyward.test')
  const dir = mkdtempSync(join(tmpdir(), 'keyward-guide-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  const passphrase = 'correct horse battery staple'
  const encrypted = await openpgp.encryptKey({ privateKey: user.privateKey, passphrase })
  writeFileSync(join(dir, 'key.asc'), encrypted.armor())
  writeFileSync(join(dir, name), examples.get(name)!)
  const { stdout } = await promisify(execFile)(process.execPath, [join(dir, name)], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      KEYWARD_URL: url,
      KEYWARD_KEY_FILE: join(dir, 'key.asc'),
      KEYWARD_PASSPHRASE: passphrase,
      KEYWARD_USER_ID: user.id,
    },
    timeout: 60_000,
  })
  return { stdout, api, user }
}

test('the guides hold the sign-in examples', (t) => {
  t.deepEqual([...examples.keys()].sort(), ['gpgauth-login.mjs', 'jwt-login.mjs'])
})

test('gpgauth-login.mjs verifies the server, signs in, reads the user and signs out with the CSRF token', async (t) => {
  const { stdout, api } = await run(t, 'gpgauth-login.mjs')
  t.is(stdout, 'signed in as ada@keyward.test\nsigned out: You are successfully logged out.\n')
  const sessions = await api.app.orm.em
    .fork()
    .getConnection()
    .execute('select count(*)::int as n from sessions')
  t.is(sessions[0].n, 0, 'the session is gone')
})

test('jwt-login.mjs signs in with a challenge, reads the user, refreshes and signs out', async (t) => {
  const { stdout, api, user } = await run(t, 'jwt-login.mjs')
  t.is(stdout, 'signed in as ada@keyward.test\nrefreshed, then signed out\n')
  const tokens = await api.app.orm.em
    .fork()
    .getConnection()
    .execute(
      "select count(*)::int as n from authentication_tokens where user_id = ? and type = 'refresh_token' and active",
      [user.id],
    )
  t.is(tokens[0].n, 0, 'no refresh token is left active')
})
