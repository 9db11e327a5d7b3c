// X-Forwarded-For and X-Forwarded-Proto are believed only from the proxies the configuration
// lists: a real server, real HTTP, each client on its own loopback address.
import { request as httpRequest } from 'node:http'
import test from 'ava'
import { loadConfig } from '../../api/config.ts'
import { addressMatcher, resolveClient } from '../../api/http/forwarded.ts'
import { startTestApi } from '../helpers/api.ts'

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** One request from a chosen local address (127.0.0.0/8 is all loopback on Linux). */
const send = (
  url: string,
  from: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
) =>
  new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(url, { method, localAddress: from, headers, agent: false }, (res) => {
      let text = ''
      res.on('data', (chunk) => {
        text += chunk
      })
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      )
    })
    req.once('error', reject)
    req.end(body)
  })

const PROXY = '127.0.0.2'
const CLIENT = '127.0.0.7'

const failJwtSignIn = (url: string, from: string, headers: Record<string, string> = {}) =>
  send(
    `${url}/auth/jwt/login.json`,
    from,
    { 'content-type': 'application/json', ...headers },
    'POST',
    '{}',
  )

test('the client address comes from X-Forwarded-For only when a configured proxy sent it', async (t) => {
  const api = await startTestApi(t, {
    env: {
      KEYWARD_TRUSTED_PROXIES: `${PROXY},10.0.0.0/8`,
      KEYWARD_METRICS_ALLOW_FROM: CLIENT,
      KEYWARD_AUTH_RATE_LIMIT_PER_ADDRESS: '2',
    },
  })
  const metrics = (from: string, forwardedFor?: string) =>
    send(`${api.url}/metrics`, from, forwardedFor ? { 'x-forwarded-for': forwardedFor } : {})

  // The proxy speaks for the client it forwards; the proxy's own address gains nothing.
  t.is((await metrics(PROXY, CLIENT)).status, 200)
  t.is((await metrics(PROXY)).status, 404)
  // Hops the client wrote itself stay left of the address the proxy appended.
  t.is((await metrics(PROXY, `${CLIENT}, 127.0.0.9`)).status, 404)
  t.is((await metrics(PROXY, `127.0.0.9, ${CLIENT}`)).status, 200)
  // A chain of trusted proxies is walked back to the first address that is not one of them.
  t.is((await metrics(PROXY, `${CLIENT}, 10.1.2.3`)).status, 200)
  // Junk in the proxy's hop never becomes the client: the proxy is.
  t.is((await metrics(PROXY, `${CLIENT}, not-an-address`)).status, 404)
  // Anyone else claiming to be the allowed client is the address it connects from.
  t.is((await metrics('127.0.0.3', CLIENT)).status, 404)
  t.is((await metrics(CLIENT, '127.0.0.3')).status, 200)

  // The per-address sign-in limit counts the forwarded client; forging hops does not reset it.
  t.is((await failJwtSignIn(api.url, PROXY, { 'x-forwarded-for': '127.0.0.20' })).status, 400)
  t.is((await failJwtSignIn(api.url, PROXY, { 'x-forwarded-for': '127.0.0.20' })).status, 400)
  t.is((await failJwtSignIn(api.url, PROXY, { 'x-forwarded-for': '127.0.0.20' })).status, 429)
  t.is(
    (await failJwtSignIn(api.url, PROXY, { 'x-forwarded-for': '203.0.113.5, 127.0.0.20' })).status,
    429,
  )
  t.is((await failJwtSignIn(api.url, PROXY, { 'x-forwarded-for': '127.0.0.21' })).status, 400)
  // Direct clients rotating a forged header are one address.
  t.is(
    (await failJwtSignIn(api.url, '127.0.0.30', { 'x-forwarded-for': '198.51.100.1' })).status,
    400,
  )
  t.is(
    (await failJwtSignIn(api.url, '127.0.0.30', { 'x-forwarded-for': '198.51.100.2' })).status,
    400,
  )
  t.is(
    (await failJwtSignIn(api.url, '127.0.0.30', { 'x-forwarded-for': '198.51.100.3' })).status,
    429,
  )

  // The request log names the client as resolved.
  const logged = api.logs.filter((line) => line.msg === 'request').map((line) => line.ip)
  t.true(logged.includes('127.0.0.21'))
  t.true(logged.includes('127.0.0.30'))
  t.false(logged.includes('198.51.100.1'))
  t.false(logged.includes('203.0.113.5'))
})

test('a configured proxy decides the scheme: Secure cookies for HTTPS, a redirect for plain HTTP', async (t) => {
  const appUrl = 'https://vault.example.test/'
  const api = await startTestApi(t, {
    env: { KEYWARD_TRUSTED_PROXIES: PROXY, KEYWARD_APP_URL: appUrl },
  })
  const csrfCookie = (answer: Answer) =>
    ([] as string[])
      .concat(answer.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('csrfToken='))

  const viaTls = await send(`${api.url}/auth/login`, PROXY, { 'x-forwarded-proto': 'https' })
  t.is(viaTls.status, 200)
  t.regex(csrfCookie(viaTls) ?? '', /; secure/i)

  // The same header from a stranger changes nothing.
  const forged = await send(`${api.url}/auth/login`, CLIENT, { 'x-forwarded-proto': 'https' })
  t.is(forged.status, 200)
  t.truthy(csrfCookie(forged))
  t.notRegex(csrfCookie(forged) ?? '', /; secure/i)
  const strangerPlain = await send(`${api.url}/auth/login`, CLIENT, { 'x-forwarded-proto': 'http' })
  t.is(strangerPlain.status, 200)

  // The proxy passed on a plain-HTTP request for an HTTPS app: a browser goes to the app URL,
  // whatever host it asked for; a write is refused rather than redirected.
  const plain = await send(`${api.url}/auth/login?redirect=%2Fapp`, PROXY, {
    'x-forwarded-proto': 'http',
    'x-forwarded-host': 'evil.example.test',
  })
  t.is(plain.status, 301)
  t.is(plain.headers.location, 'https://vault.example.test/auth/login?redirect=%2Fapp')
  const write = await send(
    `${api.url}/auth/jwt/login.json`,
    PROXY,
    { 'x-forwarded-proto': 'http', 'content-type': 'application/json' },
    'POST',
    '{}',
  )
  t.is(write.status, 403)
  t.is(JSON.parse(write.body).header.message, 'This server is reached over HTTPS only.')

  // Links are built from the app URL, never from a forwarded host.
  const settings = await send(`${api.url}/settings.json`, PROXY, {
    'x-forwarded-proto': 'https',
    'x-forwarded-host': 'evil.example.test',
  })
  t.is(JSON.parse(settings.body).body.app.url, appUrl)
})

test('proxy lists are validated like the metrics allow-list', (t) => {
  t.deepEqual(
    loadConfig({ env: { KEYWARD_TRUSTED_PROXIES: '10.0.0.1, fd00::/8' } }).trustedProxies,
    ['10.0.0.1', 'fd00::/8'],
  )
  t.deepEqual(loadConfig({ env: {} }).trustedProxies, [])
  t.throws(() => loadConfig({ env: { KEYWARD_TRUSTED_PROXIES: '10.0.0.0/33' } }), {
    message: /KEYWARD_TRUSTED_PROXIES: addresses or CIDR ranges/,
  })
  t.throws(() => loadConfig({ env: { KEYWARD_TRUSTED_PROXIES: 'proxy.local' } }))
})

test('an IPv4 proxy on a dual-stack socket is recognised, and IPv6 hops are read', (t) => {
  const trusted = addressMatcher(['127.0.0.1', 'fd00::/8'])
  t.deepEqual(
    resolveClient(trusted, '::ffff:127.0.0.1', false, { 'x-forwarded-for': '2001:db8::1' }),
    {
      ip: '2001:db8::1',
      secure: false,
      proxied: true,
    },
  )
  t.deepEqual(
    resolveClient(trusted, 'fd00::5', true, {
      'x-forwarded-for': ['198.51.100.7', 'fd00::9'],
      'x-forwarded-proto': 'HTTP, https',
    }),
    { ip: '198.51.100.7', secure: false, proxied: true },
  )
  t.deepEqual(
    resolveClient(trusted, '::ffff:192.0.2.1', false, { 'x-forwarded-for': '10.0.0.1' }),
    {
      ip: '192.0.2.1',
      secure: false,
      proxied: false,
    },
  )
})
