// Self-registration: administrators open registration to e-mail domains; a guest with an
// address in one registers and receives the setup link, anyone else is refused; closing
// registration stops it.
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { gpgAuthLogin, TestClient } from '../helpers/client.ts'
import { startSmtp } from '../helpers/smtp.ts'
import { createActiveUser } from '../helpers/users.ts'

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

const open = (domains: unknown) => ({
  role: 'admin' as const,
  ...json({ provider: 'email_domains', data: { allowed_domains: domains } }),
})

const registration = (username: string) =>
  json({ username, profile: { first_name: 'Grace', last_name: 'Hopper' } })

test('settings: closed by default, opened to domains, refused when malformed, closed by id', async (t) => {
  const api = await startTestApi(t)
  t.is((await api.request('/self-registration/settings.json')).status, 401)
  t.is((await api.request('/self-registration/settings.json', { role: 'user' })).status, 403)
  const closed = await api.request('/self-registration/settings.json', { role: 'admin' })
  t.deepEqual(closed.json.body, { provider: null, data: null })

  for (const [body, field] of [
    [{ provider: 'ldap', data: { allowed_domains: ['a.com'] } }, 'provider'],
    [{ provider: 'email_domains', data: { allowed_domains: [] } }, 'data'],
    [{ provider: 'email_domains', data: { allowed_domains: ['ok.com', 'not a domain'] } }, 'data'],
    [{ provider: 'email_domains' }, 'data'],
  ] as const) {
    const refused = await api.request('/self-registration/settings.json', {
      role: 'admin',
      ...json(body),
    })
    t.is(refused.status, 400, JSON.stringify(body))
    t.truthy(refused.json.body[field])
  }
  const bad = await api.request('/self-registration/settings.json', open(['ok.com', 'bad domain']))
  t.deepEqual(bad.json.body.data.allowed_domains, {
    1: { areEmailDomainsValid: 'The domain #1 should be a valid domain.' },
  })
  t.is(
    (await api.request('/self-registration/settings.json', { ...open(['a.com']), role: 'user' }))
      .status,
    403,
  )

  const saved = await api.request('/self-registration/settings.json', {
    ...open(['Keyward.test', 'example.org', 'keyward.test']),
    method: 'PUT',
  })
  t.is(saved.status, 200, saved.text)
  t.like(saved.json.body, {
    provider: 'email_domains',
    data: { allowed_domains: ['keyward.test', 'example.org'] },
    created_by: '00000000-0000-4000-8000-000000000001',
  })
  const { id } = saved.json.body
  t.deepEqual(
    (await api.request('/self-registration/settings.json', { role: 'admin' })).json.body,
    saved.json.body,
  )
  const settings = await api.request('/settings.json')
  t.deepEqual(settings.json.body.passbolt.plugins.selfRegistration, {
    enabled: true,
    version: '1.0.0',
  })

  const remove = (target: string, role: 'admin' | 'user' = 'admin') =>
    api.request(`/self-registration/settings/${target}.json`, { role, method: 'DELETE' })
  t.is((await remove(id, 'user')).status, 403)
  t.is((await remove('nope')).status, 400)
  t.is((await remove('00000000-0000-4000-8000-0000000000ff')).status, 404)
  t.is((await remove(id)).status, 200)
  t.deepEqual(
    (await api.request('/self-registration/settings.json', { role: 'admin' })).json.body,
    { provider: null, data: null },
  )
})

test('a guest of an allowed domain registers and gets the setup link; others are refused', async (t) => {
  const smtp = await startSmtp(t)
  const api = await startTestApi(t, {
    env: { KEYWARD_SMTP_URL: smtp.url, KEYWARD_APP_URL: 'https://vault.keyward.test/' },
  })
  // Closed: the register route does not exist for the public, the dry run says why.
  const shut = await api.request('/users/register.json', registration('grace@keyward.test'))
  t.is(shut.status, 404)
  t.is(
    shut.json.header.message,
    'Registration is not opened to public. Please contact your administrator.',
  )
  const dryShut = await api.request(
    '/self-registration/dry-run.json',
    json({ email: 'grace@keyward.test' }),
  )
  t.is(dryShut.status, 403)
  t.is(dryShut.json.header.message, 'The self registration is disabled.')

  await api.request('/self-registration/settings.json', open(['keyward.test']))
  await createActiveUser(api, 'taken@keyward.test')
  const received = smtp.received.length

  const dry = (email: string) => api.request('/self-registration/dry-run.json', json({ email }))
  t.is((await dry('grace@keyward.test')).status, 200)
  t.is((await dry('GRACE@Keyward.TEST')).status, 200)
  const foreign = await dry('mallory@evil.test')
  t.is(foreign.status, 400)
  t.deepEqual(foreign.json.body, {
    email: { checkEmailDomainIsAllowed: 'The domain is not supported for self-registration.' },
  })
  const taken = await dry('taken@keyward.test')
  t.is(taken.status, 403)
  t.is(taken.json.header.message, 'The email is already registered.')
  t.is((await dry('not-an-address')).status, 400)
  // A subdomain is another domain.
  t.is((await dry('eve@sub.keyward.test')).status, 400)

  const refused = await api.request('/users/register.json', registration('mallory@evil.test'))
  t.is(refused.status, 400)
  t.truthy(refused.json.body.email.checkEmailDomainIsAllowed)
  t.is((await api.request('/users/register.json', registration('taken@keyward.test'))).status, 403)
  const malformed = await api.request(
    '/users/register.json',
    json({ username: 'grace@keyward.test', profile: { first_name: '' } }),
  )
  t.is(malformed.status, 400)
  t.truthy(malformed.json.body.profile)
  t.is(smtp.received.length, received, 'no mail for a refused registration')

  const registered = await api.request('/users/register.json', registration('Grace@keyward.test'))
  t.is(registered.status, 200, registered.text)
  t.like(registered.json.body, {
    username: 'grace@keyward.test',
    active: false,
    profile: { first_name: 'Grace', last_name: 'Hopper' },
    role: { name: 'user' },
  })
  t.is(smtp.received.length, received + 1)
  const mail = smtp.received.at(-1)!
  t.deepEqual(mail.to, ['grace@keyward.test'])
  const link = new RegExp(
    `https://vault\\.keyward\\.test/setup/install/${registered.json.body.id}/[0-9a-f-]{36}`,
  ).exec(mail.text)
  t.truthy(link)
  // The link works as an invitation from an administrator would.
  const token = link![0].split('/').at(-1)
  const start = await api.request(`/setup/start/${registered.json.body.id}/${token}.json`)
  t.is(start.status, 200)
  t.is(start.json.body.user.username, 'grace@keyward.test')
  // Twice is once too many.
  t.is((await api.request('/users/register.json', registration('grace@keyward.test'))).status, 403)
})

test('signed-in users may not register or dry-run', async (t) => {
  const api = await startTestApi(t)
  await api.request('/self-registration/settings.json', open(['keyward.test']))
  const ada = await createActiveUser(api, 'ada@keyward.test')
  const client = new TestClient(api.url)
  await gpgAuthLogin(client, ada)
  const register = await client.json('/users/register.json', 'POST', {
    username: 'grace@keyward.test',
    profile: { first_name: 'Grace', last_name: 'Hopper' },
  })
  t.is(register.status, 403)
  t.is(register.json.header.message, 'Only guests are allowed to register.')
  const dry = await client.json('/self-registration/dry-run.json', 'POST', {
    email: 'grace@keyward.test',
  })
  t.is(dry.status, 403)
})
