// SMTP settings: what the administration page reads and saves, that saved settings are
// encrypted at rest and used by every mail after, the test e-mail with its masked SMTP
// conversation, and the refusals (bad input 400, users 403, guests 401).
import { createServer } from 'node:http'
import test from 'ava'
import { readOrganizationSetting } from '../../plugins/settings/index.ts'
import { registerUser } from '../../plugins/setup/index.ts'
import { OauthTokenError, OauthTokens } from '../../plugins/smtp-settings/oauth.ts'
import { startTestApi } from '../helpers/api.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { startSmtp } from '../helpers/smtp.ts'

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

const PASSWORD = 'S3cret-smtp-passw0rd!'

const settingsFor = (port: number, extra: Record<string, unknown> = {}) => ({
  sender_name: 'Keyward Mail',
  sender_email: 'keyward@example.com',
  host: '127.0.0.1',
  port,
  tls: false,
  client: null,
  username: 'mailer',
  password: PASSWORD,
  ...extra,
})

/** The entity the administration page builds from an answer, as its service picks it. */
const entityOf = (body: Record<string, unknown>) =>
  body.client_id
    ? 'SmtpOAuthCredentialsGrantSettingsEntity'
    : body.username === null
      ? 'SmtpNoneAuthenticationEntity'
      : body.password === null
        ? 'SmtpUsernameAuthenticationEntity'
        : 'SmtpUsernamePasswordAuthenticationEntity'

test('without saved settings, the configured server is shown without its password', async (t) => {
  const smtp = await startSmtp(t)
  const api = await startTestApi(t, {
    env: {
      KEYWARD_SMTP_URL: `smtp://relay:${encodeURIComponent('env-pass')}@127.0.0.1:${smtp.port}`,
      KEYWARD_MAIL_FROM: 'Vault <vault@example.com>',
    },
  })
  t.is((await api.request('/smtp/settings.json')).status, 401)
  t.is((await api.request('/smtp/settings.json', { role: 'user' })).status, 403)
  const {
    status,
    json: answer,
    headers,
  } = await api.request('/smtp/settings.json', {
    role: 'admin',
  })
  t.is(status, 200)
  t.is(headers.get('cache-control'), 'no-store')
  t.like(answer.body, {
    source: 'env',
    host: '127.0.0.1',
    port: smtp.port,
    tls: false,
    username: 'relay',
    password: null,
    sender_name: 'Vault',
    sender_email: 'vault@example.com',
  })
  t.deepEqual(await clientValidation(entityOf(answer.body), answer.body), {})
})

test('with no server at all, the form starts from localhost and the caller as sender', async (t) => {
  const api = await startTestApi(t)
  const { json: answer } = await api.request('/smtp/settings.json', { role: 'admin' })
  // The default sender (no-reply@localhost) is no address the page accepts.
  t.like(answer.body, {
    source: 'env',
    host: 'localhost',
    port: 25,
    sender_email: 'admin@keyward.test',
  })
  t.deepEqual(await clientValidation('SmtpNoneAuthenticationEntity', answer.body), {})
})

test('saved settings are encrypted at rest, shown back, and carry every mail after', async (t) => {
  const configured = await startSmtp(t)
  const saved = await startSmtp(t, { auth: { username: 'mailer', password: PASSWORD } })
  const api = await startTestApi(t, {
    env: { KEYWARD_SMTP_URL: configured.url },
    logLevel: 'trace',
  })
  const post = await api.request('/smtp/settings.json', {
    role: 'admin',
    ...json({ ...settingsFor(saved.port), port: String(saved.port), tls: null, client: '' }),
  })
  t.is(post.status, 200, post.text)
  t.like(post.json.body, {
    source: 'db',
    host: '127.0.0.1',
    port: saved.port,
    tls: false,
    client: null,
    username: 'mailer',
    password: PASSWORD,
    created_by: '00000000-0000-4000-8000-000000000001',
  })
  t.deepEqual(
    await clientValidation('SmtpUsernamePasswordAuthenticationEntity', post.json.body),
    {},
  )
  const stored = await readOrganizationSetting<string>(api.app.orm.em.fork(), 'smtpSettings')
  t.true(stored?.startsWith('-----BEGIN PGP MESSAGE-----'))
  t.false(JSON.stringify(stored).includes(PASSWORD))
  t.false(JSON.stringify(stored).includes('mailer'))
  const read = await api.request('/smtp/settings.json', { role: 'admin' })
  t.deepEqual(read.json.body, post.json.body)

  await registerUser(api.app.orm.em.fork(), api.app, {
    username: 'grace@keyward.test',
    firstName: 'Grace',
    lastName: 'Hopper',
    role: 'user',
  })
  await api.app.mailer.deliverDue()
  t.is(configured.received.length, 0, 'the configured server is only a fallback')
  t.is(saved.received.length, 1)
  t.is(saved.received[0].user, 'mailer')
  t.deepEqual(saved.received[0].to, ['grace@keyward.test'])
  t.regex(saved.received[0].raw, /^From: Keyward Mail <keyward@example\.com>/m)
  t.false(api.logs.some((line) => JSON.stringify(line).includes(PASSWORD)))
})

test('settings are refused field by field, and only administrators may save them', async (t) => {
  const api = await startTestApi(t)
  const base = settingsFor(2525)
  t.is((await api.request('/smtp/settings.json', { role: 'user', ...json(base) })).status, 403)
  const cases: [Record<string, unknown>, string][] = [
    [{ host: '' }, 'host'],
    [{ host: 'bad host;rm' }, 'host'],
    [{ port: 70000 }, 'port'],
    [{ port: 'twenty' }, 'port'],
    [{ sender_email: 'nobody' }, 'sender_email'],
    [{ sender_name: '' }, 'sender_name'],
    [{ tls: 'maybe' }, 'tls'],
    [{ client: 'not a host!' }, 'client'],
    [{ client_id: '9a2f1c44-58b5-4b0a-9c49-2a4a0e6b9f10' }, 'tenant_id'],
  ]
  for (const [change, field] of cases) {
    const refused = await api.request('/smtp/settings.json', {
      role: 'admin',
      ...json({ ...base, ...change }),
    })
    t.is(refused.status, 400, JSON.stringify(change))
    t.truthy(refused.json.body[field], JSON.stringify(change))
  }
  const { sender_name: _, ...missing } = base
  t.is((await api.request('/smtp/settings.json', { role: 'admin', ...json(missing) })).status, 400)
  t.is((await api.request('/smtp/settings.json', { role: 'admin', ...json([1, 2]) })).status, 400)
  t.is(await readOrganizationSetting(api.app.orm.em.fork(), 'smtpSettings'), undefined)
})

test('OAuth2 settings keep their four fields and drop username and password', async (t) => {
  const api = await startTestApi(t)
  const oauth = {
    ...settingsFor(587, { tls: true, host: 'smtp.office365.com' }),
    tenant_id: '0d5a4e6e-1b7f-4c44-8a65-93b2c1f0e111',
    client_id: '9a2f1c44-58b5-4b0a-9c49-2a4a0e6b9f10',
    client_secret: 'client-secret-value',
    oauth_username: 'mailer@example.com',
  }
  const saved = await api.request('/smtp/settings.json', { role: 'admin', ...json(oauth) })
  t.is(saved.status, 200, saved.text)
  t.like(saved.json.body, { username: null, password: null, client_secret: 'client-secret-value' })
  t.deepEqual(
    await clientValidation('SmtpOAuthCredentialsGrantSettingsEntity', saved.json.body),
    {},
  )
})

test('the test e-mail goes through the given settings and answers the conversation, credentials masked', async (t) => {
  const smtp = await startSmtp(t, { auth: { username: 'mailer', password: PASSWORD } })
  const api = await startTestApi(t, { logLevel: 'trace' })
  const sent = await api.request('/smtp/email.json', {
    role: 'admin',
    ...json({ ...settingsFor(smtp.port), email_test_to: 'ada@keyward.test' }),
  })
  t.is(sent.status, 200, sent.text)
  t.is(smtp.received.length, 1)
  t.deepEqual(smtp.received[0].to, ['ada@keyward.test'])
  t.regex(smtp.received[0].raw, /^Subject: Keyward test email/m)
  const trace = sent.json.body.debug as { cmd: string | null; response: { code: number }[] }[]
  t.true(trace.some((entry) => entry.cmd?.startsWith('EHLO')))
  t.true(trace.some((entry) => entry.cmd?.startsWith('AUTH')))
  t.true(trace.some((entry) => entry.response.some((r) => r.code === 235)))
  const text = JSON.stringify(sent.json)
  const logged = JSON.stringify(api.logs)
  for (const secret of [
    PASSWORD,
    Buffer.from(PASSWORD).toString('base64'),
    Buffer.from(`\0mailer\0${PASSWORD}`).toString('base64'),
  ]) {
    t.false(text.includes(secret))
    t.false(logged.includes(secret))
  }
  // Nothing was saved.
  t.is(await readOrganizationSetting(api.app.orm.em.fork(), 'smtpSettings'), undefined)

  const wrong = await api.request('/smtp/email.json', {
    role: 'admin',
    ...json({ ...settingsFor(smtp.port, { password: 'wrong-password' }), email_test_to: 'a@b.co' }),
  })
  t.is(wrong.status, 400)
  t.regex(wrong.json.header.message, /Invalid|auth/i)
  t.true(wrong.json.body.debug.length > 0)
  t.false(JSON.stringify(wrong.json).includes('wrong-password'))

  const closed = await api.request('/smtp/email.json', {
    role: 'admin',
    ...json({ ...settingsFor(1), email_test_to: 'a@b.co' }),
  })
  t.is(closed.status, 400)
  t.regex(closed.json.header.message, /ECONNREFUSED/)

  const noRecipient = await api.request('/smtp/email.json', {
    role: 'admin',
    ...json({ ...settingsFor(smtp.port), email_test_to: 'not-an-address' }),
  })
  t.is(noRecipient.status, 400)
  t.truthy(noRecipient.json.body.email_test_to)
  t.is(
    (
      await api.request('/smtp/email.json', {
        role: 'user',
        ...json({ ...settingsFor(smtp.port), email_test_to: 'a@b.co' }),
      })
    ).status,
    403,
  )
  t.false(api.logs.some((line) => JSON.stringify(line).includes(PASSWORD)))
})

test('OAuth2 access tokens are fetched with the client credentials and kept until they expire', async (t) => {
  const requests: URLSearchParams[] = []
  let answer: { status: number; body: unknown } = {
    status: 200,
    body: { access_token: 'token-1', expires_in: 3600 },
  }
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      requests.push(new URLSearchParams(body))
      response.writeHead(answer.status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(answer.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const port = (server.address() as { port: number }).port
  const tokens = new OauthTokens((tenant) => `http://127.0.0.1:${port}/${tenant}/token`)
  const credentials = { tenant_id: 'tenant', client_id: 'client', client_secret: 'secret' }
  t.is(await tokens.get(credentials), 'token-1')
  t.is(await tokens.get(credentials), 'token-1')
  t.is(requests.length, 1)
  t.like(Object.fromEntries(requests[0]), {
    grant_type: 'client_credentials',
    client_id: 'client',
    client_secret: 'secret',
    scope: 'https://outlook.office365.com/.default',
  })
  answer = { status: 401, body: { error: 'invalid_client' } }
  await t.throwsAsync(tokens.get({ ...credentials, client_secret: 'other' }), {
    instanceOf: OauthTokenError,
  })
  answer = { status: 200, body: {} }
  await t.throwsAsync(tokens.get({ ...credentials, client_id: 'other' }), {
    message: /did not contain an access token/,
  })
})
