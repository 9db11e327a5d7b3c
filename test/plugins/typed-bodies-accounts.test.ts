// Malformed bodies on the people and account routes typed field by field (a user's edit and
// avatar upload, a group's creation, the MFA settings, setup and verification, the theme and
// language choices): wrong types, rows that are not objects, oversized and hostile text are each
// a 4xx in passbolt's envelope with passbolt's rule and message, never a 500, and write nothing.
import test, { type ExecutionContext } from 'ava'
import { generate } from 'otplib'
import { gpgAuthLogin, TestClient } from '../helpers/client.ts'
import { adaBobAndEve, type Member, sendBody, type sqlOf } from '../helpers/vault.ts'
import { startYubicoServer, YUBICO_CLIENT_ID, YUBICO_SECRET } from '../helpers/yubico.ts'

const setup = adaBobAndEve

/** Everything a refused request could have changed, to compare before and after. */
const snapshot = (sql: ReturnType<typeof sqlOf>) =>
  Promise.all([
    sql('select id, role_id, disabled, modified from users order by id'),
    sql('select id, first_name, last_name, modified from profiles order by id'),
    sql('select id, profile_id from avatars order by id'),
    sql('select id, name from groups order by id'),
    sql('select id, group_id, user_id, is_admin from groups_users order by id'),
    sql('select id, user_id, property, value from account_settings order by id'),
    sql('select id, property, value from organization_settings order by id'),
  ])

const send = sendBody

/** What a refusal must be: a 4xx in the envelope, never a 500. */
const refused = (
  t: ExecutionContext,
  answer: Awaited<ReturnType<typeof send>>,
  label: string,
  status = 400,
) => {
  t.is(answer.status, status, `${label}: ${answer.text.slice(0, 300)}`)
  t.is(answer.json?.header?.status, 'error', label)
  t.is(answer.json?.header?.code, status, label)
}

const hostile = ['\u0000', '\uD800', '<script>alert(1)</script>', "'; drop table users; --"]
const oversized = 'é'.repeat(5000)
const label = (value: unknown) => String(JSON.stringify(value)).slice(0, 60)

const userValidation = 'Could not validate user data.'
const groupValidation = 'Could not validate group data.'
const otpFailed = 'Something went wrong when validating the one-time password.'
const notAnObject = { array: 'The value should be an object.' }

test('user edit: wrong types, a profile or avatar that is not an object, a picture that is not a file', async (t) => {
  const { ada, bob, eve, sql } = await setup(t)
  const before = await snapshot(sql)
  const own = `/users/${ada.id}.json`
  const cases: [string, unknown, string, unknown][] = [
    [
      'names that are not text',
      { profile: { first_name: 5, last_name: ['x'] } },
      userValidation,
      {
        profile: {
          first_name: { type: 'The name should be a string.' },
          last_name: { type: 'The name should be a string.' },
        },
      },
    ],
    ['a profile that is text', { profile: 'x' }, userValidation, { profile: notAnObject }],
    ['a profile that is a list', { profile: [1] }, userValidation, { profile: notAnObject }],
    [
      'an avatar that is text',
      { profile: { avatar: 'x' } },
      userValidation,
      { profile: { avatar: notAnObject } },
    ],
    [
      'a picture sent as JSON text',
      { profile: { avatar: { file: 'data:image/png;base64,iVBORw0KGgo=' } } },
      userValidation,
      { profile: { avatar: { file: { _required: 'A file is required.' } } } },
    ],
    [
      'an avatar without its file',
      { profile: { avatar: {} } },
      userValidation,
      { profile: { avatar: { file: { _required: 'A file is required.' } } } },
    ],
    [
      'an oversized name',
      { profile: { first_name: oversized } },
      userValidation,
      {
        profile: { first_name: { maxLength: 'The name length should be maximum 255 characters.' } },
      },
    ],
    [
      'a name with a lone surrogate',
      { profile: { last_name: '\uD800' } },
      userValidation,
      { profile: { last_name: { utf8Extended: 'The name should be a valid UTF8 string.' } } },
    ],
    ['a body that is a list', '[1]', userValidation, notAnObject],
    ['a body that is text', '"x"', 'Some user data should be provided.', ''],
  ]
  for (const [name, body, message, errors] of cases) {
    const answer = await send(ada, 'PUT', own, body)
    refused(t, answer, name)
    t.is(answer.json.header.message, message, name)
    t.deepEqual(answer.json.body, errors, name)
  }
  // Hostile text where an administrator's role and suspension are due.
  for (const text of [...hostile, oversized]) {
    const answer = await send(eve, 'PUT', `/users/${bob.id}.json`, {
      role_id: text,
      disabled: text,
    })
    refused(t, answer, label(text))
    if (!text.includes('\u0000'))
      t.deepEqual(Object.keys(answer.json.body).sort(), ['disabled', 'role_id'], label(text))
  }
  // The form the extension posts: a field where the file is due, or an empty file.
  for (const [name, value] of [
    ['a text field', 'not a file'],
    ['an empty file', new Blob([], { type: 'image/png' })],
  ] as const) {
    const form = new FormData()
    if (typeof value === 'string') form.append('profile[avatar][file]', value)
    else form.append('profile[avatar][file]', value, 'empty.png')
    const answer = await ada.client.fetch(own, { method: 'POST', body: form })
    refused(t, answer, name)
    t.deepEqual(answer.json.body, {
      profile: { avatar: { file: { _required: 'A file is required.' } } },
    })
  }
  t.deepEqual(await snapshot(sql), before, 'no refused edit wrote anything')
})

test('group creation: wrong types, rows that are not objects, oversized and hostile text', async (t) => {
  const { bob, eve, sql } = await setup(t)
  const manager = { user_id: bob.id, is_admin: true }
  const missingRow = {
    user_id: { _required: 'A user identifier is required.' },
    is_admin: { _required: 'A group manager status is required.' },
  }
  const cases: [string, unknown, unknown][] = [
    [
      'wrong types',
      { name: 5, groups_users: [{ user_id: 12, is_admin: 'maybe' }] },
      {
        name: { utf8Extended: 'The name should be a valid UTF8 string.' },
        groups_users: {
          0: {
            user_id: { uuid: 'The user identifier should be a valid UUID.' },
            is_admin: { boolean: 'The group manager status should be a valid boolean.' },
          },
        },
      },
    ],
    [
      'rows that are not objects',
      { name: 'Ops', groups_users: ['x', null, [1]] },
      { groups_users: { 0: missingRow, 1: missingRow, 2: missingRow } },
    ],
    [
      'members that are not a list',
      { name: 'Ops', groups_users: { user_id: bob.id } },
      { groups_users: { array: 'The group members should be a list.' } },
    ],
    [
      'too many rows, refused without reading them',
      { name: 'Ops', groups_users: Array.from({ length: 10_001 }, () => 'junk') },
      { groups_users: { hasAtMost: 'The group members should be a list.' } },
    ],
    [
      'an oversized name',
      { name: 'x'.repeat(256), groups_users: [manager] },
      { name: { maxLength: 'The name length should be maximum 255 characters.' } },
    ],
    ['no name', { groups_users: [manager] }, { name: { _required: 'A name is required.' } }],
    [
      'a blank name',
      { name: '   ', groups_users: [manager] },
      { name: { _empty: 'The name should not be empty.' } },
    ],
    ['a body that is a list', '[1]', notAnObject],
  ]
  const before = await snapshot(sql)
  for (const [name, body, errors] of cases) {
    const answer = await send(eve, 'POST', '/groups.json', body)
    refused(t, answer, name)
    t.is(answer.json.header.message, groupValidation, name)
    t.deepEqual(answer.json.body, errors, name)
  }
  for (const text of [...hostile, oversized]) {
    const answer = await send(eve, 'POST', '/groups.json', {
      name: text === oversized || text.length === 1 ? text : 'Ops',
      groups_users: [{ user_id: text, is_admin: text }],
    })
    refused(t, answer, label(text))
    if (!text.includes('\u0000'))
      t.deepEqual(Object.keys(answer.json.body.groups_users[0]).sort(), ['is_admin', 'user_id'])
  }
  t.deepEqual(await snapshot(sql), before, 'no refused creation wrote anything')
  // The rules on the data run once the body is valid, as passbolt's do.
  const unmanaged = await send(eve, 'POST', '/groups.json', {
    name: 'Ops',
    groups_users: [{ user_id: bob.id, is_admin: false }],
  })
  refused(t, unmanaged, 'no manager')
  t.deepEqual(unmanaged.json.body, {
    groups_users: { at_least_one_group_manager: 'A group manager should be provided.' },
  })
  t.deepEqual(await snapshot(sql), before)
  // A taken name is not reported while the members are malformed: passbolt checks the data's
  // rules (a free name, active users, a manager) only on a valid body.
  const ops = await send(eve, 'POST', '/groups.json', { name: 'Ops', groups_users: [manager] })
  t.is(ops.status, 200, ops.text)
  const again = await send(eve, 'POST', '/groups.json', { name: 'Ops', groups_users: ['x'] })
  refused(t, again, 'a taken name and a malformed row')
  t.deepEqual(again.json.body, { groups_users: { 0: missingRow } })
  const taken = await send(eve, 'POST', '/groups.json', { name: 'Ops', groups_users: [manager] })
  refused(t, taken, 'a taken name')
  t.deepEqual(taken.json.body, {
    name: { group_unique: 'The name is already used by another group.' },
  })
})

test('theme and language: a value that is not one on offer keeps passbolt’s message, without a tree', async (t) => {
  const { ada, eve, sql } = await setup(t)
  const before = await snapshot(sql)
  const cases: [Member, string, unknown, string][] = [
    [ada, '/account/settings/themes.json', {}, 'A value for the theme should be provided.'],
    [ada, '/account/settings/themes.json', { value: 5 }, 'This is not a valid theme.'],
    [ada, '/account/settings/themes.json', { value: [] }, 'This is not a valid theme.'],
    [
      ada,
      '/account/settings/themes.json',
      { value: { name: 'midgar' } },
      'This is not a valid theme.',
    ],
    [ada, '/account/settings/locales.json', { value: 5 }, 'This is not a valid locale.'],
    [ada, '/account/settings/locales.json', { value: ['fr-FR'] }, 'This is not a valid locale.'],
    [eve, '/locale/settings.json', { value: { locale: 'fr-FR' } }, 'This is not a valid locale.'],
  ]
  for (const text of [...hostile, oversized])
    cases.push(
      [ada, '/account/settings/themes.json', { value: text }, 'This is not a valid theme.'],
      [ada, '/account/settings/locales.json', { value: text }, 'This is not a valid locale.'],
      [eve, '/locale/settings.json', { value: text }, 'This is not a valid locale.'],
    )
  for (const [member, path, body, message] of cases) {
    const answer = await send(member, 'POST', path, body)
    refused(t, answer, `${path} ${label(body)}`)
    // Text PostgreSQL cannot store is refused at the door, with the core's own message.
    if (JSON.stringify(body).includes('\\u0000')) continue
    t.is(answer.json.header.message, message, `${path} ${label(body)}`)
    t.is(answer.json.body, '', `${path} ${label(body)}`)
  }
  for (const path of ['/account/settings/themes.json', '/account/settings/locales.json']) {
    const answer = await send(ada, 'POST', path, '[1]')
    refused(t, answer, `${path} [1]`)
    t.deepEqual(answer.json.body, notAnObject)
  }
  t.deepEqual(await snapshot(sql), before, 'no refused choice wrote anything')
})

test('MFA settings, setup and verification: malformed fields are 400s that store nothing and prove nothing', async (t) => {
  const { api, ada, eve, sql } = await setup(t)
  const yubico = await startYubicoServer(t)
  const yubikey = {
    clientId: YUBICO_CLIENT_ID,
    secretKey: YUBICO_SECRET,
    validationUrl: yubico.url,
  }
  const saved = await send(eve, 'PUT', '/mfa/settings.json', {
    providers: ['totp', 'yubikey'],
    yubikey,
    duo: {},
  })
  t.is(saved.status, 200, saved.text)
  // Ada sets TOTP up, then signs in again: that sign-in owes a code.
  const uri: string = (await ada.client.fetch('/mfa/setup/totp.json')).json.body.otpProvisioningUri
  const secret = new URL(uri).searchParams.get('secret') ?? ''
  const confirmed = await send(ada, 'POST', '/mfa/setup/totp.json', {
    otpProvisioningUri: uri,
    totp: await generate({ secret }),
  })
  t.is(confirmed.status, 200, confirmed.text)
  const owing = new TestClient(api.url)
  await gpgAuthLogin(owing, ada)
  const before = await snapshot(sql)

  const settings: [unknown, string][] = [
    [{ providers: [5] }, 'providers'],
    [{ providers: Array.from({ length: 50 }, () => 'totp') }, 'providers'],
    [{ providers: ['totp'], yubikey: 'x' }, 'yubikey'],
    [{ providers: ['totp'], duo: 'x' }, 'duo'],
    [{ providers: ['totp'], duo: { clientId: 5, clientSecret: oversized } }, 'duo'],
    [{ providers: ['yubikey'], yubikey: { ...yubikey, clientId: '<script>' } }, 'yubikey'],
    [{ providers: ['yubikey'], yubikey: { ...yubikey, secretKey: oversized } }, 'yubikey'],
  ]
  for (const [body, field] of settings) {
    const answer = await send(eve, 'PUT', '/mfa/settings.json', body)
    refused(t, answer, label(body))
    t.deepEqual(Object.keys(answer.json.body), [field], label(body))
  }

  const setupCases: [string, unknown, unknown][] = [
    [
      'wrong types',
      { otpProvisioningUri: 5, totp: {} },
      {
        otpProvisioningUri: { isValidOtpProvisioningUri: 'The provisioning URI is not valid.' },
        totp: { numeric: 'The OTP should be composed of numbers only.' },
      },
    ],
    [
      'an oversized URI',
      { otpProvisioningUri: `otpauth://totp/x?secret=${'A'.repeat(5000)}`, totp: '123456' },
      { otpProvisioningUri: { isValidOtpProvisioningUri: 'The provisioning URI is not valid.' } },
    ],
    [
      'hostile text',
      { otpProvisioningUri: '<script>alert(1)</script>', totp: "'; drop table users; --" },
      {
        otpProvisioningUri: { isValidOtpProvisioningUri: 'The provisioning URI is not valid.' },
        totp: { numeric: 'The OTP should be composed of numbers only.' },
      },
    ],
    [
      'no URI',
      { totp: '123456' },
      { otpProvisioningUri: { _required: 'This field is required.' } },
    ],
    ['a body that is a list', '[1]', notAnObject],
  ]
  for (const [name, body, errors] of setupCases) {
    const answer = await send(ada, 'POST', '/mfa/setup/totp.json', body)
    refused(t, answer, name)
    t.is(answer.json.header.message, otpFailed, name)
    t.deepEqual(answer.json.body, errors, name)
  }
  for (const hotp of [5, ['x'], 'c'.repeat(5000), ...hostile, undefined]) {
    const answer = await send(ada, 'POST', '/mfa/setup/yubikey.json', { hotp })
    refused(t, answer, label(hotp))
    if (hotp === '\u0000') continue
    t.is(answer.json.header.message, otpFailed)
    t.deepEqual(answer.json.body, {
      hotp: { isValidModhex: 'The OTP should be composed of modhex characters.' },
    })
  }

  // The owed code: each malformed one answers its rule, and the sign-in still owes it.
  const verify = (body: unknown) =>
    owing.fetch('/mfa/verify/totp.json', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  for (const [body, rule] of [
    [{ totp: {} }, 'numeric'],
    [{ totp: [123456] }, 'numeric'],
    [{ totp: oversized }, 'numeric'],
    [{ totp: '<script>alert(1)</script>' }, 'numeric'],
    [{ totp: null }, '_required'],
  ] as const) {
    const answer = await verify(body)
    refused(t, answer, label(body))
    t.is(answer.json.header.message, otpFailed, label(body))
    t.deepEqual(Object.keys(answer.json.body.totp), [rule], label(body))
  }
  const remember = await verify({ totp: '123456', remember: { days: 30 } })
  refused(t, remember, 'a remember flag that is an object')
  t.deepEqual(Object.keys(remember.json.body), ['remember'])
  t.is((await owing.fetch('/users/me.json')).status, 302, 'the sign-in still owes its code')
  t.deepEqual(await snapshot(sql), before, 'no refused MFA call wrote anything')
})
