// Fault injection, the mail server: down (connections refused) or slow (it takes its time to
// answer). A mail is a side effect: what the user asked for succeeds, at its usual speed, and
// is kept even when the mail cannot go (the mail waits in the queue for a later try).
import { createServer } from 'node:net'
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { TestClient } from '../helpers/client.ts'
import { jwtLogin } from '../helpers/jwt.ts'
import { sqlOf, team } from '../helpers/vault.ts'

const APP_URL = 'https://vault.keyward.test/'

/** A port nothing listens on: bound, then closed. */
const closedPort = async () => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** An SMTP server that accepts connections and never says a word. */
const silentSmtp = async (t: import('ava').ExecutionContext) => {
  const sockets = new Set<import('node:net').Socket>()
  const server = createServer((socket) => sockets.add(socket))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    for (const socket of sockets) socket.destroy()
    server.close()
  })
  return (server.address() as { port: number }).port
}

const scenario = async (t: import('ava').ExecutionContext, port: number) => {
  const api = await startTestApi(t, { env: { KEYWARD_APP_URL: APP_URL } })
  const [admin, ada] = await team(api, ['root', 'ada'], 'root')
  // The administrator points every mail at the faulty server.
  const saved = await admin.client.json('/smtp/settings.json', 'POST', {
    sender_name: 'Keyward',
    sender_email: 'keyward@example.com',
    host: '127.0.0.1',
    port,
    tls: false,
    client: null,
    username: null,
    password: null,
  })
  t.is(saved.status, 200, saved.text)
  const started = performance.now()
  // An administrator invites someone: the invitation mail cannot go.
  const created = await admin.client.json('/users.json', 'POST', {
    username: 'newt@keyward.test',
    profile: { first_name: 'Newt', last_name: 'Comer' },
  })
  // A refused JWT sign-in mails an alert to the user and the administrators.
  const refused = await new TestClient(api.url).json('/auth/jwt/login.json', 'POST', {
    user_id: ada.id,
    challenge: 'not a message',
  })
  const signedIn = await jwtLogin(new TestClient(api.url), ada.id, ada, APP_URL.slice(0, -1))
  const seconds = (performance.now() - started) / 1000
  t.is(created.status, 200, created.text)
  t.true(refused.status >= 400 && refused.status < 500, refused.text)
  t.truthy(signedIn.answer, signedIn.response.text)
  t.deepEqual(await sqlOf(api)("select username from users where username = 'newt@keyward.test'"), [
    { username: 'newt@keyward.test' },
  ])
  t.true(seconds < 10, `the requests took ${seconds} s`)
  // The invitation waits in the queue, to be tried again, not dropped.
  const queued = await sqlOf(api)(
    "select attempts, failed_at from mail_queue where recipient = 'newt@keyward.test'",
  )
  t.is(queued.length, 1)
  t.is(queued[0].failed_at, null)
}

test('the mail server down: every request the user made succeeds', async (t) => {
  await scenario(t, await closedPort())
})

test('the mail server silent: requests do not wait for it', async (t) => {
  t.timeout(120_000)
  await scenario(t, await silentSmtp(t))
})
