// Mobile account transfer, played from both ends over real HTTP: the extension (signed in with
// GPGAuth) starts a transfer and builds its QR pages as passbolt's extension does; the phone
// reads them, reports each page with the transfer's token, checks the hash, completes, and then
// signs in by JWT with the key it received.
import { createHash } from 'node:crypto'
import test from 'ava'
import * as openpgp from 'openpgp'
import { startTestApi, type TestApi } from '../helpers/api.ts'
import { gpgAuthLogin, TestClient } from '../helpers/client.ts'
import { clientValidation } from '../helpers/client-entities.ts'
import { jwtLogin } from '../helpers/jwt.ts'
import { createActiveUser } from '../helpers/users.ts'
import { sqlOf, team } from '../helpers/vault.ts'

const DOMAIN = 'https://vault.keyward.test'
const PASSPHRASE = 'correct horse battery staple'

/** QR payload size and header, as the extension slices the data it shows. */
const SLICE = 1465 - 3
const page = (number: number, data: string) => `1${number.toString(16).padStart(2, '0')}${data}`

/** What the extension shows: the data pages (from page 1), their hash, the page count. */
const extensionPages = async (member: {
  id: string
  fingerprint: string
  privateKey: openpgp.PrivateKey
}) => {
  const locked = await openpgp.encryptKey({ privateKey: member.privateKey, passphrase: PASSPHRASE })
  const raw = JSON.stringify({
    user_id: member.id,
    fingerprint: member.fingerprint.toLowerCase(),
    armored_key: locked.armor(),
  })
  const pages: string[] = []
  for (let start = 0; start < raw.length; start += SLICE)
    pages.push(page(pages.length + 1, raw.slice(start, start + SLICE)))
  return { pages, hash: createHash('sha512').update(raw).digest('hex'), total: pages.length + 1 }
}

const setup = async (t: import('ava').ExecutionContext) => {
  const api = await startTestApi(t, { env: { KEYWARD_APP_URL: `${DOMAIN}/` } })
  const [ada, bob] = await team(api, ['ada', 'bob'])
  return { api, ada, bob }
}

const phone = (api: TestApi) => new TestClient(api.url)

test('the phone reads every page, checks the hash, completes, and signs in by JWT with the key', async (t) => {
  const api = await startTestApi(t, { env: { KEYWARD_APP_URL: `${DOMAIN}/` } })
  // An RSA key, as many accounts have, spans several QR codes.
  const ada = {
    ...(await createActiveUser(api, 'ada@keyward.test', { keyType: 'rsa' })),
    client: phone(api),
  }
  t.is((await gpgAuthLogin(ada.client, ada)).stage2.status, 200)
  const settings = await ada.client.fetch('/settings.json')
  t.deepEqual(settings.json.body.passbolt.plugins.mobile, { enabled: true, version: '1.0.0' })
  const guestSettings = await phone(api).fetch('/settings.json')
  t.is(guestSettings.json.body.passbolt.plugins.mobile, undefined, 'not shown to guests')

  const { pages, hash, total } = await extensionPages(ada)
  t.true(total >= 3, 'the key spans several QR codes')
  const created = await ada.client.json('/mobile/transfers.json', 'POST', {
    total_pages: total,
    hash,
  })
  t.is(created.status, 200, created.text)
  const transfer = created.json.body
  t.like(transfer, { user_id: ada.id, total_pages: total, current_page: 0, status: 'start', hash })
  t.is(transfer.authentication_token.type, 'mobile_transfer')
  t.deepEqual(await clientValidation('TransferEntity', transfer), {})

  // The first QR code, as the extension builds it from the answer.
  const first = page(
    0,
    JSON.stringify({
      transfer_id: transfer.id,
      user_id: ada.id,
      domain: DOMAIN,
      total_pages: transfer.total_pages,
      hash: transfer.hash,
      authentication_token: transfer.authentication_token.token,
    }),
  )
  t.true(first.length <= 1465, 'the first page fits one QR code')

  // The phone's side.
  const mobile = phone(api)
  const shown = [first, ...pages]
  const meta = JSON.parse(shown[0].slice(3))
  const turn = (current_page: number, status = 'in progress', query = '') =>
    mobile.json(
      `/mobile/transfers/${meta.transfer_id}/${meta.authentication_token}.json${query}`,
      'PUT',
      { current_page, status },
    )
  let data = ''
  let asked = 1
  const first_turn = await turn(asked)
  t.is(first_turn.status, 200, first_turn.text)
  t.like(first_turn.json.body, { status: 'in progress', current_page: 1 })
  while (asked < meta.total_pages) {
    // The extension polls and shows the page the phone asked for.
    const polled = await ada.client.fetch(`/mobile/transfers/${transfer.id}.json`)
    t.is(polled.json.body.current_page, asked)
    t.is(polled.headers.get('cache-control'), 'no-store')
    const scanned = shown[polled.json.body.current_page]
    t.is(Number.parseInt(scanned.slice(1, 3), 16), asked, 'the page header numbers it')
    data += scanned.slice(3)
    if (asked < meta.total_pages - 1) {
      asked++
      t.is((await turn(asked)).status, 200)
    } else break
  }
  t.is(createHash('sha512').update(data).digest('hex'), meta.hash, 'the phone checks the hash')
  const done = await turn(meta.total_pages - 1, 'complete', '?contain[user.profile]=1')
  t.is(done.status, 200, done.text)
  t.like(done.json.body, { status: 'complete', user: { username: ada.username } })
  t.like(done.json.body.user.profile, { first_name: 'Test', last_name: 'User' })

  const received = JSON.parse(data)
  const privateKey = await openpgp.decryptKey({
    privateKey: await openpgp.readPrivateKey({ armoredKey: received.armored_key }),
    passphrase: PASSPHRASE,
  })
  const key = {
    privateKey,
    publicKey: privateKey.toPublic(),
    armoredPublicKey: privateKey.toPublic().armor(),
    fingerprint: privateKey.getFingerprint().toUpperCase(),
  }
  const { response, answer } = await jwtLogin(mobile, received.user_id, key, DOMAIN)
  t.is(response.status, 200, response.text)
  const followed = await mobile.fetch(`/mobile/transfers/${transfer.id}.json`, {
    headers: { authorization: `Bearer ${answer!.access_token}` },
  })
  t.is(followed.status, 200, followed.text)
  t.is(followed.json.body.status, 'complete')
  t.deepEqual(await clientValidation('TransferEntity', followed.json.body), {})

  // Over is over.
  const again = await turn(1)
  t.is(again.status, 403)
  t.is(again.json.header.message, 'This operation is not allowed. The operation is already over.')
})

test('creation refuses guests and malformed transfers, and keeps one live transfer per user', async (t) => {
  const { api, ada } = await setup(t)
  const hash = 'a'.repeat(128)
  const guest = await phone(api).json('/mobile/transfers.json', 'POST', { total_pages: 2, hash })
  t.is(guest.status, 403, 'no session, no CSRF cookie: refused before anything')
  for (const [body, field] of [
    [{}, 'total_pages'],
    [{ total_pages: 0, hash }, 'total_pages'],
    [{ total_pages: 65535, hash }, 'total_pages'],
    [{ total_pages: 1.5, hash }, 'total_pages'],
    [{ total_pages: '3', hash }, 'total_pages'],
    [{ total_pages: 3 }, 'hash'],
    [{ total_pages: 3, hash: 'z'.repeat(128) }, 'hash'],
    [{ total_pages: 3, hash: 'a'.repeat(127) }, 'hash'],
  ] as const) {
    const refused = await ada.client.json('/mobile/transfers.json', 'POST', body)
    t.is(refused.status, 400, JSON.stringify(body))
    t.is(refused.json.header.message, 'Could not validate the transfer data.')
    t.truthy(refused.json.body[field], `${JSON.stringify(body)} names ${field}`)
  }
  const sql = sqlOf(api)
  t.is((await sql('select count(*)::int as n from transfers'))[0].n, 0, 'nothing written')

  const first = (await ada.client.json('/mobile/transfers.json', 'POST', { total_pages: 3, hash }))
    .json.body
  const second = (await ada.client.json('/mobile/transfers.json', 'POST', { total_pages: 3, hash }))
    .json.body
  t.is((await ada.client.fetch(`/mobile/transfers/${first.id}.json`)).json.body.status, 'cancel')
  t.is((await ada.client.fetch(`/mobile/transfers/${second.id}.json`)).json.body.status, 'start')
  const stale = await phone(api).json(
    `/mobile/transfers/${first.id}/${first.authentication_token.token}.json`,
    'PUT',
    { current_page: 1, status: 'in progress' },
  )
  t.is(stale.status, 403)
  t.is(stale.json.header.message, 'The authentication token is not active.')
})

test('updates refuse wrong tokens, other users, restarts, early completion and pages past the end', async (t) => {
  const { api, ada, bob } = await setup(t)
  const hash = 'b'.repeat(128)
  const transfer = (
    await ada.client.json('/mobile/transfers.json', 'POST', { total_pages: 3, hash })
  ).json.body
  const token = transfer.authentication_token.token
  const mobile = phone(api)
  const put = (path: string, body: unknown) => mobile.json(path, 'PUT', body)
  const base = `/mobile/transfers/${transfer.id}`
  const expect = async (
    response: Promise<{ status: number; json: { header: { message: string } } }>,
    status: number,
    message: string,
  ) => {
    const answer = await response
    t.is(answer.status, status, message)
    t.is(answer.json.header.message, message)
  }
  await expect(
    put(`${base}/not-a-uuid.json`, { status: 'in progress' }),
    401,
    'The authentication token should be a valid uuid.',
  )
  await expect(
    put(`${base}/${crypto.randomUUID()}.json`, { status: 'in progress' }),
    401,
    'The authentication token is invalid.',
  )
  await expect(
    put(`/mobile/transfers/nope/${token}.json`, { status: 'in progress' }),
    400,
    'The transfer id is not valid.',
  )
  await expect(
    put(`/mobile/transfers/${crypto.randomUUID()}/${token}.json`, { status: 'in progress' }),
    404,
    'The transfer does not exist.',
  )
  await expect(
    put(`${base}/${token}.json`, { status: 'start', current_page: 1 }),
    403,
    'This operation is not allowed. Restarting a transfer is not allowed.',
  )
  await expect(
    put(`${base}/${token}.json`, { status: 'complete', current_page: 1 }),
    403,
    'This operation is not allowed. The current page does not match the total number of pages.',
  )
  await expect(
    put(`${base}/${token}.json`, { status: 'in progress', current_page: 3 }),
    400,
    'Could not validate the transfer data.',
  )
  await expect(
    put(`${base}/${token}.json`, { status: 'paused', current_page: 1 }),
    400,
    'Could not validate the transfer data.',
  )
  await expect(
    put(`${base}/${token}.json`, { status: 'in progress', current_page: -1 }),
    400,
    'Could not validate the transfer data.',
  )
  // Another user, signed in, can neither see nor move it.
  await expect(bob.client.fetch(`${base}.json`), 404, 'The transfer does not exist.')
  await expect(
    bob.client.json(`${base}.json`, 'PUT', { status: 'cancel' }),
    403,
    'This operation is not allowed for this user.',
  )
  await expect(
    ada.client.fetch('/mobile/transfers/nope.json'),
    400,
    'The transfer id is not valid.',
  )
  t.like(
    (await ada.client.fetch(`${base}.json`)).json.body,
    { status: 'start', current_page: 0 },
    'nothing moved',
  )

  // The extension cancels it (no page sent); the phone can go no further.
  const cancelled = await ada.client.json(`${base}.json`, 'PUT', { status: 'cancel' })
  t.is(cancelled.status, 200, cancelled.text)
  t.like(cancelled.json.body, { status: 'cancel', current_page: 0 })
  await expect(
    put(`${base}/${token}.json`, { status: 'in progress', current_page: 1 }),
    403,
    'This operation is not allowed. The operation is already over.',
  )
})

test('a lapsed token cancels the transfer: the phone is refused and the extension sees it cancelled', async (t) => {
  const { api, ada } = await setup(t)
  const transfer = (
    await ada.client.json('/mobile/transfers.json', 'POST', {
      total_pages: 2,
      hash: 'c'.repeat(128),
    })
  ).json.body
  const token = transfer.authentication_token.token
  const mobile = phone(api)
  t.is(
    (
      await mobile.json(`/mobile/transfers/${transfer.id}/${token}.json`, 'PUT', {
        status: 'in progress',
        current_page: 1,
      })
    ).status,
    200,
  )
  await sqlOf(api)(
    "update authentication_tokens set created = now() - interval '6 minutes' where token = $1",
    [token],
  )
  const late = await mobile.json(`/mobile/transfers/${transfer.id}/${token}.json`, 'PUT', {
    status: 'complete',
    current_page: 1,
  })
  t.is(late.status, 403)
  t.is(late.json.header.message, 'The authentication token is expired.')
  const seen = await ada.client.fetch(`/mobile/transfers/${transfer.id}.json`)
  t.like(seen.json.body, { status: 'cancel', current_page: 1 })
  const again = await mobile.json(`/mobile/transfers/${transfer.id}/${token}.json`, 'PUT', {
    status: 'complete',
    current_page: 1,
  })
  t.is(again.json.header.message, 'The authentication token is not active.')
  t.false(JSON.stringify(api.logs).includes(token), 'the token in the path never reaches the log')
})
