// Anonymous floods of the sign-in and recovery routes, which anyone can post to with a known
// (public) key fingerprint or address: they are throttled whether or not they succeed, they
// never hide the token a real user holds, and the tokens they leave are bounded and purged.
import test from 'ava'
import * as openpgp from 'openpgp'
import { MAX_ACTIVE_LOGIN_TOKENS } from '../../plugins/auth/routes.ts'
import { purgeExpiredTokens } from '../../plugins/auth/tokens.ts'
import { startTestApi } from '../helpers/api.ts'
import {
  decodeUserAuthToken,
  generateUserKey,
  gpgAuthLogin,
  TestClient,
} from '../helpers/client.ts'
import { query } from '../helpers/database.ts'
import { startSmtp } from '../helpers/smtp.ts'
import { createActiveUser } from '../helpers/users.ts'

const stage1 = (client: TestClient, fingerprint: string) =>
  client.postForm('/auth/login.json', { 'data[gpg_auth][keyid]': fingerprint })

test('a flood of anonymous stage-1 requests neither hides a user’s token nor runs unbounded', async (t) => {
  const api = await startTestApi(t)
  const sql = (text: string, values: unknown[] = []) => query(api.app.database.url, text, values)
  const betty = await createActiveUser(api, 'betty@keyward.test')
  const own = new TestClient(api.url)
  // betty asks for her challenge first and decrypts it...
  const challenge = await stage1(own, betty.fingerprint)
  t.is(challenge.status, 200)
  const { data } = await openpgp.decrypt({
    message: await openpgp.readMessage({
      armoredMessage: decodeUserAuthToken(challenge.headers.get('x-gpgauth-user-auth-token')!),
    }),
    decryptionKeys: betty.privateKey,
  })
  // ...while 60 anonymous posts name her public fingerprint.
  const attacker = new TestClient(api.url)
  const statuses: number[] = []
  for (let i = 0; i < 60; i++) statuses.push((await stage1(attacker, betty.fingerprint)).status)
  t.deepEqual(statuses.slice(0, 9), Array(9).fill(200), 'the first ones within the limit')
  t.deepEqual(statuses.slice(9), Array(51).fill(429), 'then 429, success or not')
  const [{ count }] = await sql(
    "select count(*)::int as count from authentication_tokens where type = 'login' and user_id = $1 and active",
    [betty.id],
  )
  t.true(count <= MAX_ACTIVE_LOGIN_TOKENS, `${count} active login tokens`)
  t.is(count, 10, 'one token per challenge answered, none for the refused ones')

  // betty's stage 2 finds her token, however many were issued after it.
  const signedIn = await own.postForm('/auth/login.json', {
    'data[gpg_auth][keyid]': betty.fingerprint,
    'data[gpg_auth][user_token_result]': String(data),
  })
  t.is(signedIn.status, 200, signedIn.text)
  t.is(signedIn.headers.get('x-gpgauth-authenticated'), 'true')

  // Once the window has passed, she signs in from scratch again.
  await sql("update throttles set window_ends = now() - interval '1 second'")
  const again = await gpgAuthLogin(new TestClient(api.url), betty)
  t.is(again.stage2.status, 200)
})

test('active login tokens per user stay bounded: the oldest go first', async (t) => {
  // A generous address limit, so only the per-account and token bounds are at play; the
  // throttle's window is reset between bursts as if minutes had passed.
  const api = await startTestApi(t)
  const sql = (text: string, values: unknown[] = []) => query(api.app.database.url, text, values)
  const betty = await createActiveUser(api, 'betty@keyward.test')
  const client = new TestClient(api.url)
  for (let burst = 0; burst < 3; burst++) {
    for (let i = 0; i < 10; i++) t.is((await stage1(client, betty.fingerprint)).status, 200)
    await sql("update throttles set window_ends = now() - interval '1 second'")
  }
  const rows = await sql(
    "select active from authentication_tokens where type = 'login' and user_id = $1 order by created, id",
    [betty.id],
  )
  t.is(rows.length, 30)
  t.is(rows.filter((row) => row.active).length, MAX_ACTIVE_LOGIN_TOKENS)
  t.deepEqual(
    rows.slice(-MAX_ACTIVE_LOGIN_TOKENS).map((row) => row.active),
    Array(MAX_ACTIVE_LOGIN_TOKENS).fill(true),
    'the newest are the ones kept',
  )
})

test('stage 1 is throttled per address too, for keys known or not', async (t) => {
  const api = await startTestApi(t, { env: { KEYWARD_AUTH_RATE_LIMIT_PER_ADDRESS: '5' } })
  const client = new TestClient(api.url)
  const strangers = await Promise.all(
    Array.from({ length: 3 }, (_, i) => generateUserKey(`s${i}@keyward.test`)),
  )
  const betty = await createActiveUser(api, 'betty@keyward.test')
  const statuses = []
  for (const key of [...strangers, betty, betty, betty])
    statuses.push((await stage1(client, key.fingerprint)).status)
  // Unknown keys are refused (400) but counted all the same; the sixth is over the limit.
  t.deepEqual(statuses, [400, 400, 400, 200, 200, 429])
})

test('expired tokens are purged, also by several processes at once; live ones stay', async (t) => {
  const api = await startTestApi(t)
  const sql = (text: string, values: unknown[] = []) => query(api.app.database.url, text, values)
  const betty = await createActiveUser(api, 'betty@keyward.test')
  const client = new TestClient(api.url)
  for (let i = 0; i < 4; i++) await stage1(client, betty.fingerprint)
  // Thousands of old login tokens and one old recovery link, as a flood would have left them.
  await sql(
    `insert into authentication_tokens (id, token, user_id, type, active, created, modified)
     select gen_random_uuid(), gen_random_uuid()::text, $1, 'login', true,
       now() - interval '10 minutes', now() from generate_series(1, 12000)`,
    [betty.id],
  )
  await sql(
    `insert into authentication_tokens (id, token, user_id, type, active, created, modified)
     values (gen_random_uuid(), gen_random_uuid()::text, $1, 'recover', true, now() - interval '11 days', now()),
            (gen_random_uuid(), gen_random_uuid()::text, $1, 'recover', true, now() - interval '9 days', now())`,
    [betty.id],
  )
  const purged = await Promise.all([0, 1, 2].map(() => purgeExpiredTokens(api.app.orm.em.fork())))
  t.is(
    purged.reduce((sum, n) => sum + n, 0),
    12_001,
    'each expired row deleted once, by one of them',
  )
  const left = await sql(
    'select type, count(*)::int as count from authentication_tokens where user_id = $1 group by type order by type',
    [betty.id],
  )
  // The setup token was spent at registration but is still within its ten days.
  t.deepEqual(left, [
    { type: 'login', count: 4 },
    { type: 'recover', count: 1 },
    { type: 'register', count: 1 },
  ])
})

test('a recovery-mail flood: a few mails per account, the same answers for unknown addresses, the first link still works', async (t) => {
  const smtp = await startSmtp(t)
  const api = await startTestApi(t, { env: { KEYWARD_SMTP_URL: smtp.url } })
  const sql = (text: string, values: unknown[] = []) => query(api.app.database.url, text, values)
  const grace = await createActiveUser(api, 'grace@keyward.test')
  const client = new TestClient(api.url)
  await client.fetch('/settings.json')
  const flood = async (username: string) => {
    const answers: string[] = []
    for (let i = 0; i < 10; i++) {
      const answer = await client.json('/users/recover.json', 'POST', { username })
      answers.push(`${answer.status} ${answer.json.header.message}`)
    }
    return answers
  }
  const known = await flood('grace@keyward.test')
  const unknown = await flood('nobody@keyward.test')
  t.deepEqual(unknown, known, 'a known and an unknown address are answered alike')
  t.deepEqual(
    known.map((answer) => Number(answer.slice(0, 3))),
    [200, 200, 200, ...Array(7).fill(429)],
  )
  // One address gets 30 requests in ten minutes, whatever the usernames.
  const spread = []
  for (let i = 0; i < 11; i++)
    spread.push(
      (await client.json('/users/recover.json', 'POST', { username: `n${i}@keyward.test` })).status,
    )
  t.deepEqual(spread, [...Array(10).fill(200), 429])
  // Mail goes out after the answer: wait until the three have arrived.
  const recoveryMails = () => smtp.received.filter((mail) => mail.text.includes('/setup/recover/'))
  const deadline = Date.now() + 10_000
  while (recoveryMails().length < 3 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50))
  await new Promise((resolve) => setTimeout(resolve, 200))
  t.is(recoveryMails().length, 3, 'three mails, the unknown addresses get none')
  const [{ count }] = await sql(
    "select count(*)::int as count from authentication_tokens where type = 'recover' and active",
  )
  t.is(count, 3)
  // Every link mailed still opens, the first included: no later request took its place.
  const toGrace = recoveryMails().filter((mail) => mail.to.includes('grace@keyward.test'))
  t.is(toGrace.length, 3)
  for (const mail of toGrace) {
    const [, userId, token] = /\/setup\/recover\/([0-9a-f-]{36})\/([0-9a-f-]{36})/.exec(mail.text)!
    t.is(userId, grace.id)
    t.is((await client.fetch(`/setup/recover/start/${userId}/${token}.json`)).status, 200)
  }
})
