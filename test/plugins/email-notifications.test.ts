// E-mail notification settings: passbolt's defaults, changes kept one by one, refusals, and the
// effect: a notification turned off is not sent, whoever sends it.
import test from 'ava'
import { registerUser } from '../../plugins/setup/index.ts'
import { changeAndWait, startTestApi } from '../helpers/api.ts'
import { startSmtp } from '../helpers/smtp.ts'
import { createActiveUser } from '../helpers/users.ts'

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

test('passbolt defaults until saved; changes keep the other settings', async (t) => {
  const api = await startTestApi(t)
  t.is((await api.request('/settings/emails/notifications.json')).status, 401)
  t.is((await api.request('/settings/emails/notifications.json', { role: 'user' })).status, 403)
  const defaults = await api.request('/settings/emails/notifications.json', { role: 'admin' })
  t.is(defaults.status, 200)
  t.like(defaults.json.body, {
    sources_database: false,
    sources_file: false,
    send_password_create: false,
    send_password_share: true,
    send_user_create: true,
    send_user_recover: true,
    send_folder_create: false,
    show_secret: false,
  })
  // The page sends every field back, with its own `sources_*`; those are not settings.
  const saved = await api.request('/settings/emails/notifications.json', {
    role: 'admin',
    ...json({
      ...defaults.json.body,
      sources_database: 'ignored',
      send_user_create: false,
      show_uri: 'true',
      send_comment_add: '0',
      unknown_setting: true,
    }),
  })
  t.is(saved.status, 200, saved.text)
  t.is(saved.json.header.message, 'The notification settings for the organization were updated.')
  t.like(saved.json.body, {
    sources_database: true,
    send_user_create: false,
    show_uri: true,
    send_comment_add: false,
    send_password_share: true,
  })
  t.false('unknown_setting' in saved.json.body)
  // A partial change leaves the rest as saved.
  const partial = await api.request('/settings/emails/notifications.json', {
    role: 'admin',
    ...json({ send_password_share: false }),
  })
  t.like(partial.json.body, { send_user_create: false, send_password_share: false, show_uri: true })
  const read = await api.request('/settings/emails/notifications.json', { role: 'admin' })
  t.deepEqual(read.json.body, partial.json.body)
})

test('a setting that is not a boolean is refused, and users may not change any', async (t) => {
  const api = await startTestApi(t)
  const refused = await api.request('/settings/emails/notifications.json', {
    role: 'admin',
    ...json({ send_user_create: 'sometimes', send_password_share: false }),
  })
  t.is(refused.status, 400)
  t.deepEqual(refused.json.body, {
    send_user_create: { boolean: 'An email notification setting should be a boolean.' },
  })
  t.is(
    (
      await api.request('/settings/emails/notifications.json', {
        role: 'user',
        ...json({ send_user_create: false }),
      })
    ).status,
    403,
  )
  const unchanged = await api.request('/settings/emails/notifications.json', { role: 'admin' })
  t.like(unchanged.json.body, { sources_database: false, send_password_share: true })
})

test('a notification turned off is not sent; the others still are', async (t) => {
  const smtp = await startSmtp(t)
  const api = await startTestApi(t, { env: { KEYWARD_SMTP_URL: smtp.url } })
  const register = async (username: string) => {
    await registerUser(api.app.orm.em.fork(), api.app, {
      username,
      firstName: 'New',
      lastName: 'User',
      role: 'user',
    })
    // Outside a request nothing waits for the mail queue: the test does.
    await api.app.mailer.deliverDue()
  }
  await register('before@keyward.test')
  t.is(smtp.received.length, 1)
  // Another process may have saved it: the change feed tells this one.
  await changeAndWait(api, () =>
    api.request('/settings/emails/notifications.json', {
      role: 'admin',
      ...json({ send_user_create: false }),
    }),
  )
  await register('after@keyward.test')
  t.is(smtp.received.length, 1, 'no setup mail while send_user_create is off')
  t.true(
    api.logs.some(
      (line) =>
        line.notification === 'send_user_create' &&
        String(line.msg).includes('turned this notification off'),
    ),
  )
  // Recovery mails are another notification, still on until it is turned off too.
  await createActiveUser(api, 'active@keyward.test')
  t.is(smtp.received.length, 1)
  await api.request('/users/recover.json', json({ username: 'active@keyward.test' }))
  t.is(smtp.received.length, 2)
  t.regex(smtp.received[1].text, /setup\/recover\//)
  await api.request('/settings/emails/notifications.json', {
    role: 'admin',
    ...json({ send_user_recover: false }),
  })
  await api.request('/users/recover.json', json({ username: 'active@keyward.test' }))
  t.is(smtp.received.length, 2)
  await api.request('/settings/emails/notifications.json', {
    role: 'admin',
    ...json({ send_user_create: true }),
  })
  await register('again@keyward.test')
  t.is(smtp.received.length, 3)
  t.deepEqual(smtp.received[2].to, ['again@keyward.test'])
})
