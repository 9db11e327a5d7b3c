// GET /metrics: Prometheus figures (requests and latency per route, throttle refusals, pool use,
// mail queue depth) for the configured addresses only; and the request id every answer and
// every log line of its request carry.
import { createServer } from 'node:net'
import test from 'ava'
import { ConfigError, loadConfig } from '../../api/config.ts'
import { addressAllowed } from '../../api/metrics.ts'
import { startTestApi } from '../helpers/api.ts'

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/** The value of one sample line, e.g. `name{label="x"}`. */
const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

test('the figures of requests, refusals, the pool and the mail queue, for loopback', async (t) => {
  const api = await startTestApi(t, {
    env: {
      KEYWARD_AUTH_RATE_LIMIT: '2',
      // Nothing listens there: the mail stays queued.
      KEYWARD_SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
    },
  })
  for (let n = 0; n < 3; n++) await api.request('/healthcheck/status.json')
  await api.request('/no/such/path.json')
  const start = `/setup/start/${crypto.randomUUID()}/${crypto.randomUUID()}.json`
  const statuses = []
  for (let n = 0; n < 3; n++) statuses.push((await fetch(`${api.url}${start}`)).status)
  t.deepEqual(statuses, [400, 400, 429])
  await api.app.mailer.send(api.app.orm.em.fork(), {
    to: 'ada@keyward.test',
    subject: 'Waiting',
    text: 'body',
  })
  await api.app.mailer.deliverDue()

  const answer = await fetch(`${api.url}/metrics`)
  t.is(answer.status, 200)
  t.regex(answer.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/)
  t.is(answer.headers.get('cache-control'), 'no-store')
  const text = await answer.text()
  t.is(
    sample(
      text,
      'keyward_http_requests_total{method="GET",route="/healthcheck/status.json",status="200"}',
    ),
    3,
  )
  t.is(
    sample(
      text,
      'keyward_http_request_duration_seconds_count{method="GET",route="/healthcheck/status.json"}',
    ),
    3,
  )
  t.is(sample(text, 'keyward_http_requests_total{method="GET",route="unmatched",status="404"}'), 1)
  t.is(
    sample(text, 'keyward_throttle_refusals_total{route="/setup/start/{userId}/{tokenId}.json"}'),
    1,
  )
  t.true((sample(text, 'keyward_db_pool_connections{state="free"}') ?? -1) >= 0)
  t.is(sample(text, 'keyward_db_pool_connections{state="pending"}'), 0)
  t.is(sample(text, 'keyward_mail_queue_depth'), 1)
  t.true((sample(text, 'process_resident_memory_bytes') ?? 0) > 0)
  t.false(text.includes(start), 'paths with ids are labelled by their route pattern')
})

test('other addresses are told there is no such page; the allow-list is checked at start', async (t) => {
  const api = await startTestApi(t, { env: { KEYWARD_METRICS_ALLOW_FROM: '10.0.0.0/8, fd00::/8' } })
  const refused = await api.request('/metrics')
  t.is(refused.status, 404)
  t.is(refused.json.header.status, 'error')
  t.false(refused.text.includes('keyward_'))

  t.true(addressAllowed(['10.0.0.0/8'], '10.1.2.3'))
  t.true(addressAllowed(['10.0.0.0/8'], '::ffff:10.1.2.3'))
  t.false(addressAllowed(['10.0.0.0/8'], '11.0.0.1'))
  t.true(addressAllowed(['fd00::/8'], 'fd12::1'))
  t.true(addressAllowed(['127.0.0.1', '::1'], '::1'))
  t.false(addressAllowed([], '127.0.0.1'))
  const error = t.throws(
    () => loadConfig({ env: { KEYWARD_METRICS_ALLOW_FROM: '127.0.0.1,nonsense,10.0.0.0/33' } }),
    { instanceOf: ConfigError },
  )
  t.regex(error?.message ?? '', /^KEYWARD_METRICS_ALLOW_FROM: addresses or CIDR ranges/m)
})

test('each answer names its request, and so does every log line written for it', async (t) => {
  const api = await startTestApi(t)
  const answer = await api.request('/users/me.json', { role: 'user' })
  const id = answer.headers.get('x-request-id')
  t.regex(id ?? '', /^[0-9a-f-]{36}$/)
  t.is(answer.json.header.id, id)
  const lines = api.logs.filter((line) => line.requestId === id)
  t.true(lines.some((line) => line.msg === 'request' && line.status === answer.status))
  const other = await api.request('/healthcheck/status.json')
  t.not(other.headers.get('x-request-id'), id)
})
