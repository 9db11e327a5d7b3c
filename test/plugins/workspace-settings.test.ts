// The settings routes the official extension reads after sign-in and the administration routes
// behind them: defaults, saving, refusals (bad input 400, users 403, guests 401).
import test from 'ava'
import { startTestApi } from '../helpers/api.ts'
import { gpgAuthLogin, TestClient } from '../helpers/client.ts'
import { createActiveUser } from '../helpers/users.ts'

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

const ADMIN_ID = '00000000-0000-4000-8000-000000000001'

test('account settings: none chosen, then a theme and a language', async (t) => {
  const api = await startTestApi(t)
  // Account settings belong to a real user: sign one in with their key.
  const ada = await createActiveUser(api, 'ada@keyward.test')
  const client = new TestClient(api.url)
  await gpgAuthLogin(client, ada)
  const empty = await client.fetch('/account/settings.json')
  t.is(empty.status, 200)
  t.deepEqual(empty.json.body, [])
  const themes = await client.fetch('/account/settings/themes.json')
  t.deepEqual(
    themes.json.body.map((theme: { name: string }) => theme.name),
    ['default', 'midgar', 'solarized_light', 'solarized_dark'],
  )
  const preview = await fetch(`${api.url}${new URL(themes.json.body[1].preview).pathname}`)
  t.is(preview.status, 200)
  t.is(preview.headers.get('content-type'), 'image/svg+xml')
  const theme = await client.json('/account/settings/themes.json', 'POST', { value: 'midgar' })
  t.is(theme.status, 200)
  t.like(theme.json.body, { property: 'theme', value: 'midgar', user_id: ada.id })
  const locale = await client.json('/account/settings/locales.json', 'POST', { value: 'fr-FR' })
  t.like(locale.json.body, { property: 'locale', value: 'fr-FR' })
  const after = await client.fetch('/account/settings.json')
  t.deepEqual(
    after.json.body.map((row: { property: string; value: string }) => [row.property, row.value]),
    [
      ['locale', 'fr-FR'],
      ['theme', 'midgar'],
    ],
  )
})

test('account settings refuse unknown themes and languages, and guests', async (t) => {
  const api = await startTestApi(t)
  const missing = await api.request('/account/settings/themes.json', { role: 'user', ...json({}) })
  t.is(missing.status, 400)
  t.is(missing.json.header.message, 'A value for the theme should be provided.')
  const unknown = await api.request('/account/settings/themes.json', {
    role: 'user',
    ...json({ value: '../etc' }),
  })
  t.is(unknown.status, 400)
  t.is(unknown.json.header.message, 'This is not a valid theme.')
  const locale = await api.request('/account/settings/locales.json', {
    role: 'user',
    ...json({ value: 'xx-XX' }),
  })
  t.is(locale.status, 400)
  t.is(locale.json.header.message, 'This is not a valid locale.')
  t.is((await api.request('/account/settings.json')).status, 401)
  t.is((await api.request('/img/themes/nope.svg')).status, 404)
})

test('organisation locale: administrators set it, guests and /settings.json get it', async (t) => {
  const api = await startTestApi(t)
  const user = await api.request('/locale/settings.json', {
    role: 'user',
    ...json({ value: 'de-DE' }),
  })
  t.is(user.status, 403)
  const bad = await api.request('/locale/settings.json', {
    role: 'admin',
    ...json({ value: 'klingon' }),
  })
  t.is(bad.status, 400)
  const saved = await api.request('/locale/settings.json', {
    role: 'admin',
    ...json({ value: 'de-DE' }),
  })
  t.is(saved.status, 200)
  t.like(saved.json.body, { property: 'locale', value: 'de-DE', created_by: ADMIN_ID })
  const guest = await api.request('/settings.json')
  t.is(guest.json.body.app.locale, 'de-DE')
  await api.request('/locale/settings.json', { role: 'admin', ...json({ value: 'en-UK' }) })
})

test('password policies: defaults, saved by administrators, read by everyone', async (t) => {
  const api = await startTestApi(t)
  const defaults = await api.request('/password-policies/settings.json', { role: 'user' })
  t.like(defaults.json.body, {
    default_generator: 'password',
    external_dictionary_check: true,
    source: 'default',
    password_generator_settings: { length: 18, mask_emoji: false },
    passphrase_generator_settings: { words: 9, word_separator: ' ', word_case: 'lowercase' },
  })
  const legacy = await api.request('/password-generator/settings.json', {
    role: 'user',
    redirect: 'manual',
  })
  t.is(legacy.status, 302)
  t.is(legacy.headers.get('location'), '/password-policies/settings.json')
  const policy = {
    ...defaults.json.body,
    source: undefined,
    default_generator: 'passphrase',
    password_generator_settings: { ...defaults.json.body.password_generator_settings, length: 32 },
  }
  t.is(
    (await api.request('/password-policies/settings.json', { role: 'user', ...json(policy) }))
      .status,
    403,
  )
  const tooShort = await api.request('/password-policies/settings.json', {
    role: 'admin',
    ...json({
      ...policy,
      password_generator_settings: { ...policy.password_generator_settings, length: 4 },
    }),
  })
  t.is(tooShort.status, 400)
  t.truthy(tooShort.json.body.password_generator_settings.length)
  const saved = await api.request('/password-policies/settings.json', {
    role: 'admin',
    ...json(policy),
  })
  t.is(saved.status, 200)
  t.like(saved.json.body, { default_generator: 'passphrase', source: 'db', created_by: ADMIN_ID })
  const read = await api.request('/password-policies/settings.json', { role: 'user' })
  t.is(read.json.body.password_generator_settings.length, 32)
})

test('user passphrase policies: 50 bits by default, 50-224 accepted', async (t) => {
  const api = await startTestApi(t)
  const defaults = await api.request('/user-passphrase-policies/settings.json', { role: 'user' })
  t.deepEqual(defaults.json.body, { entropy_minimum: 50, external_dictionary_check: true })
  const body = { entropy_minimum: 128, external_dictionary_check: false }
  t.is(
    (await api.request('/user-passphrase-policies/settings.json', { role: 'user', ...json(body) }))
      .status,
    403,
  )
  const tooHigh = await api.request('/user-passphrase-policies/settings.json', {
    role: 'admin',
    ...json({ ...body, entropy_minimum: 4096 }),
  })
  t.is(tooHigh.status, 400)
  t.truthy(tooHigh.json.body.entropy_minimum)
  const saved = await api.request('/user-passphrase-policies/settings.json', {
    role: 'admin',
    ...json(body),
  })
  t.like(saved.json.body, body)
  t.like(
    (await api.request('/user-passphrase-policies/settings.json', { role: 'user' })).json.body,
    body,
  )
})

test('password expiry: off by default, on, then off again by id', async (t) => {
  const api = await startTestApi(t)
  const off = await api.request('/password-expiry/settings.json', { role: 'user' })
  t.deepEqual(off.json.body, {
    automatic_expiry: false,
    automatic_update: false,
    policy_override: false,
    default_expiry_period: null,
  })
  const half = await api.request('/password-expiry/settings.json', {
    role: 'admin',
    ...json({ automatic_expiry: true, automatic_update: false }),
  })
  t.is(half.status, 400)
  const on = await api.request('/password-expiry/settings.json', {
    role: 'admin',
    ...json({ automatic_expiry: true, automatic_update: true }),
  })
  t.is(on.status, 200)
  t.true(on.json.body.automatic_expiry)
  const { id } = on.json.body
  t.is(
    (await api.request(`/password-expiry/settings/${id}.json`, { role: 'user', method: 'DELETE' }))
      .status,
    403,
  )
  t.is(
    (await api.request('/password-expiry/settings/nope.json', { role: 'admin', method: 'DELETE' }))
      .status,
    400,
  )
  t.is(
    (
      await api.request('/password-expiry/settings/00000000-0000-4000-8000-0000000000ff.json', {
        role: 'admin',
        method: 'DELETE',
      })
    ).status,
    404,
  )
  t.is(
    (await api.request(`/password-expiry/settings/${id}.json`, { role: 'admin', method: 'DELETE' }))
      .status,
    200,
  )
  t.false(
    (await api.request('/password-expiry/settings.json', { role: 'user' })).json.body
      .automatic_expiry,
  )
})

test('metadata settings answer the v4 defaults until an administrator chooses; /settings.json announces metadata', async (t) => {
  const api = await startTestApi(t)
  const types = await api.request('/metadata/types/settings.json', { role: 'user' })
  t.like(types.json.body, { default_resource_types: 'v4', allow_creation_of_v5_resources: false })
  t.is(Object.keys(types.json.body).length, 14)
  t.deepEqual((await api.request('/metadata/keys/settings.json', { role: 'user' })).json.body, {
    allow_usage_of_personal_keys: true,
    zero_knowledge_key_share: false,
  })
  t.deepEqual((await api.request('/metadata/setup/settings.json', { role: 'user' })).json.body, {
    enable_encrypted_metadata_on_install: false,
  })
  t.deepEqual(
    (await api.request('/metadata/settings/getting-started.json', { role: 'user' })).json.body,
    // Nothing chosen and no metadata key: administrators are invited to set encryption up.
    {
      enabled: true,
    },
  )
  const keys = await api.request(
    '/metadata/keys.json?filter[deleted]=0&contain[metadata_private_keys]=1',
    { role: 'user' },
  )
  t.deepEqual(keys.json.body, [])
  t.is(
    (await api.request('/metadata/keys.json?filter[deleted]=maybe', { role: 'user' })).status,
    400,
  )
  t.is((await api.request('/metadata/types/settings.json')).status, 401)
  const settings = await api.request('/settings.json', { role: 'user' })
  const plugins = settings.json.body.passbolt.plugins
  t.like(plugins.metadata, { enabled: true, version: '1.0.0' })
  for (const name of [
    'accountSettings',
    'locale',
    'passwordPolicies',
    'passwordPoliciesUpdate',
    'userPassphrasePolicies',
    'passwordExpiry',
    'healthcheckUi',
  ])
    t.true(plugins[name]?.enabled, name)
})

test('the page shell sets the root font size and serves its icon', async (t) => {
  const api = await startTestApi(t)
  const page = await api.request('/auth/login')
  t.regex(page.text, /<link rel="stylesheet" href="\/css\/shell.css">/)
  const css = await api.request('/css/shell.css')
  t.is(css.status, 200)
  t.regex(css.text, /html\{font-size:62\.5%/)
  const icon = await api.request('/favicon.ico')
  t.is(icon.status, 200)
  t.is(icon.headers.get('content-type'), 'image/svg+xml')
})
