// The mail queue: a mail that cannot be sent (an OAuth2 token that cannot be obtained, an SMTP
// server that is down) never fails the request that asked for it; it is kept, retried, and sent
// once the server works. A rolled-back transaction sends nothing, a mail that keeps failing is
// kept marked failed, and two processes sending from one queue send each mail once.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'ava'
import { bootApp, createLogger, shutdownApp } from '../../api/app.ts'
import { loadConfig } from '../../api/config.ts'
import { runInTransaction } from '../../api/db/transaction.ts'
import { plugins } from '../../plugins/index.ts'
import { OauthTokens } from '../../plugins/smtp-settings/oauth.ts'
import { initSmtpState } from '../../plugins/smtp-settings/service.ts'
import { FIXTURE_KEYS_ENV, startTestApi, type TestApi, testAuthPlugin } from '../helpers/api.ts'
import { TestClient } from '../helpers/client.ts'
import { createTestDatabase, query } from '../helpers/database.ts'
import { jwtLogin } from '../helpers/jwt.ts'
import { startSmtp } from '../helpers/smtp.ts'
import { createActiveUser } from '../helpers/users.ts'

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

const DOMAIN = 'https://vault.keyward.test'

interface QueueRow {
  id: string
  recipient: string
  attempts: number
  last_error: string | null
  failed_at: Date | null
}

const queueRows = (api: TestApi): Promise<QueueRow[]> =>
  query(
    api.app.database.url,
    'select id, recipient, attempts, last_error, failed_at from mail_queue order by created',
  )

/** Time passes: every waiting mail is due again. */
const makeDue = (api: TestApi) =>
  query(api.app.database.url, 'update mail_queue set next_attempt_at = now()')

/** A port nothing listens on (yet). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/** A token endpoint answering 401 until `working` is set, then an access token. */
const startTokenEndpoint = async (t: import('ava').ExecutionContext, accessToken: string) => {
  const state = { working: false, requests: 0 }
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      state.requests++
      response.writeHead(state.working ? 200 : 401, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify(
          state.working
            ? { access_token: accessToken, expires_in: 3600 }
            : { error: 'invalid_client' },
        ),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const { port } = server.address() as { port: number }
  return { state, url: (tenant: string) => `http://127.0.0.1:${port}/${tenant}/token` }
}

test('an OAuth2 token that cannot be obtained fails no JWT sign-in; the alert is retried and sent once it can', async (t) => {
  const smtp = await startSmtp(t, {
    oauth: { username: 'mailer@example.com', accessToken: 'oauth-access-token' },
  })
  const tokens = await startTokenEndpoint(t, 'oauth-access-token')
  const api = await startTestApi(t, { env: { KEYWARD_APP_URL: `${DOMAIN}/` } })
  initSmtpState(api.app, new OauthTokens(tokens.url))
  const admin = await createActiveUser(api, 'admin@keyward.test', { role: 'admin' })
  const user = await createActiveUser(api, 'ada@keyward.test')
  const saved = await api.request('/smtp/settings.json', {
    role: 'admin',
    as: admin.id,
    ...json({
      sender_name: 'Keyward Mail',
      sender_email: 'keyward@example.com',
      host: '127.0.0.1',
      port: smtp.port,
      tls: false,
      client: null,
      username: null,
      password: null,
      tenant_id: '0d5a4e6e-1b7f-4c44-8a65-93b2c1f0e111',
      client_id: '9a2f1c44-58b5-4b0a-9c49-2a4a0e6b9f10',
      client_secret: 'client-secret-value',
      oauth_username: 'mailer@example.com',
    }),
  })
  t.is(saved.status, 200, saved.text)
  t.deepEqual(await queueRows(api), [])

  const client = new TestClient(api.url)
  // A challenge for another domain: refused, with an alert to the user and the administrator.
  const refused = await jwtLogin(client, user.id, user, 'https://evil.example')
  t.deepEqual(
    [refused.response.status, refused.response.json.header.message],
    [400, 'The credentials are invalid.'],
  )
  const good = await jwtLogin(client, user.id, user, DOMAIN)
  t.is(good.response.status, 200, 'a sign-in works while no mail can be sent')
  const me = await client.fetch('/users/me.json', {
    headers: { authorization: `Bearer ${good.answer!.access_token}` },
  })
  t.is(me.status, 200)
  t.false(
    api.logs.some((line) => line.msg === 'unexpected error'),
    'no request answered 500',
  )

  const alerts = await queueRows(api)
  t.deepEqual(alerts.map((row) => row.recipient).sort(), ['ada@keyward.test', 'admin@keyward.test'])
  for (const row of alerts) {
    t.is(row.attempts, 1, 'tried once right after the request')
    t.regex(row.last_error ?? '', /^OauthTokenError: /)
    t.is(row.failed_at, null)
  }
  t.false(JSON.stringify(api.logs).includes('client-secret-value'), 'no credential logged')

  // The tenant's endpoint works again: the next attempt sends every mail, once.
  tokens.state.working = true
  await makeDue(api)
  await api.app.mailer.deliverDue()
  t.is(smtp.received.length, 2)
  t.true(smtp.received.every((mail) => mail.user === 'mailer@example.com'))
  t.true(smtp.received.every((mail) => mail.text.includes('Authentication security alert')))
  t.deepEqual(smtp.received.flatMap((mail) => mail.to).sort(), [
    'ada@keyward.test',
    'admin@keyward.test',
  ])
  t.deepEqual(await queueRows(api), [], 'sent mails leave the queue')
  await api.app.mailer.deliverDue()
  t.is(smtp.received.length, 2, 'nothing is sent twice')
})

test('with the SMTP server down, a recovery is answered and its mail goes out once the server is up', async (t) => {
  const port = await freePort()
  const api = await startTestApi(t, { env: { KEYWARD_SMTP_URL: `smtp://127.0.0.1:${port}` } })
  await createActiveUser(api, 'ada@keyward.test')
  await query(api.app.database.url, 'delete from mail_queue')
  const asked = await api.request('/users/recover.json', json({ username: 'ada@keyward.test' }))
  t.is(asked.status, 200, asked.text)
  const [row] = await queueRows(api)
  t.is(row.recipient, 'ada@keyward.test')
  t.is(row.attempts, 1)
  t.regex(row.last_error ?? '', /ECONNREFUSED/)
  const waiting = api.logs.find(
    (line) => line.msg === 'mail not sent; will retry' && line.mailId === row.id,
  )
  t.truthy(waiting, 'the failure is logged')
  // The request's own first attempt logs under its id; on a loaded machine the process's sender,
  // woken by the same commit, may make that attempt first, outside any request.
  if (waiting?.requestId !== undefined)
    t.is(waiting.requestId, asked.json.header.id, 'the failure is logged under the request')
  t.is(asked.headers.get('x-request-id'), asked.json.header.id)

  const smtp = await startSmtp(t, { port })
  await makeDue(api)
  await api.app.mailer.deliverDue()
  t.is(smtp.received.length, 1)
  t.regex(smtp.received[0].text, /setup\/recover\//)
  t.regex(smtp.received[0].raw, new RegExp(`^Message-ID: <${row.id}@`, 'mi'))
  t.deepEqual(await queueRows(api), [])
})

test('a rolled-back transaction sends nothing; a mail that keeps failing is kept, marked failed', async (t) => {
  const port = await freePort()
  const api = await startTestApi(t, {
    env: { KEYWARD_SMTP_URL: `smtp://127.0.0.1:${port}` },
    mailQueue: { retryBaseMs: 1, maxAttempts: 3 },
  })
  await t.throwsAsync(
    runInTransaction(api.app.orm.em.fork(), async (tx) => {
      await api.app.mailer.send(tx, { to: 'gone@keyward.test', subject: 'No', text: 'never' })
      t.is((await queueRows(api)).length, 0, 'not visible before the commit')
      throw new Error('the request failed')
    }),
    { message: 'the request failed' },
  )
  await api.app.mailer.deliverDue()
  t.deepEqual(await queueRows(api), [])

  await api.app.mailer.send(api.app.orm.em.fork(), {
    to: 'kept@keyward.test',
    subject: 'Kept',
    text: 'body',
  })
  for (let attempt = 0; attempt < 5; attempt++) {
    await makeDue(api)
    await api.app.mailer.deliverDue()
  }
  const [row] = await queueRows(api)
  t.is(row.recipient, 'kept@keyward.test')
  t.is(row.attempts, 3, 'no attempt after the last one')
  t.truthy(row.failed_at)
  t.true(api.logs.some((line) => line.msg === 'mail not sent; no more attempts'))
})

test('two processes sending from one queue send each mail exactly once', async (t) => {
  const smtp = await startSmtp(t)
  const databaseUrl = await createTestDatabase(t)
  const dataDir = mkdtempSync(join(tmpdir(), 'keyward-mail-queue-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const boot = async () => {
    const app = await bootApp({
      config: loadConfig({
        env: {
          DATABASE_URL: databaseUrl,
          KEYWARD_DATA_DIR: dataDir,
          KEYWARD_SMTP_URL: smtp.url,
          ...FIXTURE_KEYS_ENV,
        },
      }),
      plugins: [...plugins, testAuthPlugin],
      logger: createLogger({ logLevel: 'silent' }),
    })
    t.teardown(() => shutdownApp(app))
    return app
  }
  const first = await boot()
  const second = await boot()
  const mails = Array.from({ length: 30 }, (_, n) => ({
    to: `user${n}@keyward.test`,
    subject: `Mail ${n}`,
    text: `body ${n}`,
  }))
  // Written in one transaction, so both processes hear of all of them at once.
  await runInTransaction(first.orm.em.fork(), async (tx) => {
    for (const mail of mails) await first.mailer.send(tx, mail)
  })
  await Promise.all([first.mailer.deliverDue(), second.mailer.deliverDue()])
  await Promise.all([first.mailer.deliverDue(), second.mailer.deliverDue()])
  t.is(smtp.received.length, mails.length)
  t.deepEqual(smtp.received.map((mail) => mail.to[0]).sort(), mails.map((mail) => mail.to).sort())
  const ids = smtp.received.map((mail) => /^Message-ID: (.*)$/im.exec(mail.raw)?.[1])
  t.is(new Set(ids).size, mails.length)
})
