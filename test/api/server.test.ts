// The HTTP pipeline over real HTTP and PostgreSQL: the envelope on success and on every error
// path, validation trees, body limits, security headers, and 500s that leak nothing.
import { connect } from 'node:net'
import test from 'ava'
import { z } from 'zod'
import { definePlugin, defineRoute, Reply } from '../../api/plugin.ts'
import { plugins } from '../../plugins/index.ts'
import { startTestApi, testAuthPlugin } from '../helpers/api.ts'

const probe = definePlugin({
  name: 'probe',
  routes: [
    defineRoute({
      method: 'POST',
      path: '/probe/{id}.json',
      action: 'Probe.add',
      summary: 'echo a validated body',
      auth: 'user',
      permission: 'none',
      params: z.object({ id: z.uuid({ error: 'The probe identifier should be a valid UUID.' }) }),
      body: z.object({
        username: z.email(),
        profile: z.object({ first_name: z.string().min(1).max(255), last_name: z.string().min(1) }),
        groups: z
          .array(z.object({ id: z.uuid() }))
          .max(2)
          .optional(),
      }),
      message: 'The probe was added.',
      handler: ({ params, body }) => new Reply({ id: params.id, ...body }, { status: 201 }),
    }),
    defineRoute({
      method: 'GET',
      path: '/probe/boom.json',
      action: 'Probe.boom',
      summary: 'fails unexpectedly',
      auth: 'public',
      permission: 'none',
      handler: () => {
        throw new Error('secret detail: password=hunter2')
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/probe/list.json',
      action: 'Probe.list',
      summary: 'paginated list',
      auth: 'public',
      permission: 'none',
      query: {
        paginate: true,
        filter: { 'has-id': 'uuids', 'is-active': 'boolean' },
        sort: ['Probes.name', 'Probes.created'],
      },
      handler: ({ query }) =>
        new Reply(query, { pagination: { count: 42, page: query.page, limit: query.limit } }),
    }),
  ],
})

const start = (t: import('ava').ExecutionContext, env?: Record<string, string>) =>
  startTestApi(t, { plugins: [...plugins, testAuthPlugin, probe], env })

const ID = '6b1c2d9a-1f7e-4c7a-9f0e-2b3c4d5e6f70'

test('success: the envelope carries id, status, servertime, action, message, url and code', async (t) => {
  const api = await start(t)
  const before = Math.floor(Date.now() / 1000)
  const response = await api.request(`/probe/${ID.toUpperCase()}.json?api-version=v2`, {
    method: 'POST',
    role: 'user',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'ada@keyward.test',
      profile: { first_name: 'Ada', last_name: 'Lovelace' },
    }),
  })
  t.is(response.status, 201)
  const { header, body } = response.json
  t.regex(header.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  t.is(header.status, 'success')
  t.true(header.servertime >= before && header.servertime <= before + 5)
  t.is(header.message, 'The probe was added.')
  t.is(header.url, `/probe/${ID.toUpperCase()}.json?api-version=v2`)
  t.is(header.code, 201)
  t.is(body.id, ID, 'path UUIDs are lower-cased')
  t.deepEqual(Object.keys(header), [
    'id',
    'status',
    'servertime',
    'action',
    'message',
    'url',
    'code',
  ])
})

test('validation failures are 400 with the body keyed by field, then rule, nested for objects and rows', async (t) => {
  const api = await start(t)
  const response = await api.request(`/probe/${ID}.json`, {
    method: 'POST',
    role: 'user',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'not-an-email',
      profile: { first_name: '', last_name: 'x'.repeat(3) },
      groups: [{ id: 'x' }, { id: ID }, { id: ID }],
    }),
  })
  t.is(response.status, 400)
  t.is(response.json.header.status, 'error')
  t.is(response.json.header.message, 'Could not validate the request data.')
  t.deepEqual(response.json.body, {
    username: { email: 'The value should be a valid email address.' },
    profile: { first_name: { _empty: 'This field cannot be left empty.' } },
    groups: { hasAtMost: 'The list should hold at most 2 items.' },
  })
  const badRow = await api.request(`/probe/${ID}.json`, {
    method: 'POST',
    role: 'user',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'a@keyward.test',
      profile: { first_name: 'A', last_name: 'B' },
      groups: [{ id: ID }, { id: 'x' }],
    }),
  })
  t.deepEqual(badRow.json.body, {
    groups: { '1': { id: { uuid: 'The value should be a valid UUID.' } } },
  })
  const missing = await api.request(`/probe/${ID}.json`, {
    method: 'POST',
    role: 'user',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  })
  t.deepEqual(missing.json.body, {
    username: { _required: 'This field is required.' },
    profile: { _required: 'This field is required.' },
  })
})

test('a bad path identifier is 400 with the route message', async (t) => {
  const api = await start(t)
  const response = await api.request('/probe/not-a-uuid.json', { method: 'POST', role: 'user' })
  t.is(response.status, 400)
  t.deepEqual(response.json.body, { id: { uuid: 'The probe identifier should be a valid UUID.' } })
})

test('malformed JSON, wrong content type and oversized bodies get 400, 415 and 413 envelopes', async (t) => {
  const api = await start(t, { KEYWARD_BODY_LIMIT: '1kb' })
  const post = (body: string, type: string) =>
    api.request(`/probe/${ID}.json`, {
      method: 'POST',
      role: 'user',
      headers: { 'content-type': type },
      body,
    })
  const malformed = await post('{"username": ', 'application/json')
  t.is(malformed.status, 400)
  t.is(malformed.json.header.message, 'The request body is not valid JSON.')
  const wrongType = await post('<xml/>', 'application/xml')
  t.is(wrongType.status, 415)
  t.is(wrongType.json.header.code, 415)
  const big = await post(JSON.stringify({ username: 'a'.repeat(2000) }), 'application/json')
  t.is(big.status, 413)
  t.is(big.json.header.message, 'The request body is too large.')
})

const JSON_WITH_CSRF =
  'Content-Type: application/json\r\nCookie: csrfToken=t\r\nX-CSRF-Token: t\r\n'

/**
 * A request with a body sent in `chunks` pieces 50 ms apart on a connection the client closes
 * after it, as nginx sends to its upstream; resolves with what came back and any socket error.
 */
const sendSlowlyAndClose = (url: string, head: string, body: Buffer, chunks: number) =>
  new Promise<{ answer: string; error?: string }>((resolve) => {
    const { port } = new URL(url)
    // Like nginx, the client goes on sending its body when the server ends its side.
    const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true })
    let answer = ''
    let error: string | undefined
    socket.on('data', (data) => {
      answer += data.toString('latin1')
    })
    socket.on('error', (failure: NodeJS.ErrnoException) => {
      error = failure.code ?? failure.message
    })
    socket.on('close', () => resolve({ answer, error }))
    socket.write(`${head}Connection: close\r\nContent-Length: ${body.length}\r\n\r\n`)
    const size = Math.ceil(body.length / chunks)
    const send = (index: number) => {
      if (socket.destroyed) return
      if (index * size >= body.length) return void socket.end()
      socket.write(body.subarray(index * size, (index + 1) * size))
      setTimeout(() => send(index + 1), 50)
    }
    send(0)
  })

test('a body the answer did not need is read to its end before the answer, so a closing proxy gets it', async (t) => {
  const api = await start(t, { KEYWARD_BODY_LIMIT: '1kb' })
  const body = Buffer.alloc(2 * 1024 * 1024, 0x20)
  // Over the limit by its Content-Length: refused before a byte of it is read.
  const big = await sendSlowlyAndClose(
    api.url,
    `POST /probe/${ID}.json HTTP/1.1\r\nHost: x\r\nX-Test-Role: user\r\n${JSON_WITH_CSRF}`,
    body,
    8,
  )
  t.is(big.error, undefined, 'the connection was not reset while the body was sent')
  t.regex(big.answer, /^HTTP\/1\.1 413 /)
  t.true(big.answer.includes('The request body is too large.'))
  // A guest's upload to a route for users: refused before the body is read.
  const guest = await sendSlowlyAndClose(
    api.url,
    `POST /probe/${ID}.json HTTP/1.1\r\nHost: x\r\n${JSON_WITH_CSRF}`,
    body,
    8,
  )
  t.is(guest.error, undefined)
  t.regex(guest.answer, /^HTTP\/1\.1 401 /)
})

test('unknown routes are 404 and known paths with another method 405 with Allow, in the envelope', async (t) => {
  const api = await start(t)
  const unknown = await api.request('/nothing-here.json')
  t.is(unknown.status, 404)
  t.deepEqual([unknown.json.header.message, unknown.json.body], ['Not Found', ''])
  const wrongMethod = await api.request('/settings.json', { method: 'DELETE' })
  t.is(wrongMethod.status, 405)
  t.is(wrongMethod.headers.get('allow'), 'HEAD, GET')
  t.is(wrongMethod.json.header.status, 'error')
})

test('401 for guests on user routes, 403 for users on admin routes, with the catalogue messages', async (t) => {
  const api = await start(t)
  const guest = await api.request(`/probe/${ID}.json`, { method: 'POST' })
  t.deepEqual(
    [guest.status, guest.json.header.message, guest.json.body],
    [401, 'Authentication is required to continue', ''],
  )
  const user = await api.request('/healthcheck.json', { role: 'user' })
  t.deepEqual(
    [user.status, user.json.header.message],
    [403, 'Access restricted to administrators.'],
  )
})

test('an unexpected error is a generic 500; the log has it with the request id', async (t) => {
  const api = await start(t)
  const response = await api.request('/probe/boom.json')
  t.is(response.status, 500)
  t.is(response.json.header.message, 'An Internal Error Has Occurred.')
  t.is(response.json.body, '')
  t.false(response.text.includes('hunter2'))
  t.false(response.text.includes('at '))
  const logged = api.logs.find((line) => line.msg === 'unexpected error')
  t.is(logged?.requestId, response.json.header.id)
})

test('an unexpected error while the database does not answer is the outage: 503 with Retry-After', async (t) => {
  const api = await start(t)
  // The pool closed: nothing reaches the database any more, as when it is away.
  await api.app.orm.close(true)
  const response = await api.request('/probe/boom.json')
  t.is(response.status, 503)
  t.is(response.headers.get('retry-after'), '5')
  t.is(response.json.header.message, 'The service is unavailable for a moment. Please try again.')
  t.false(api.logs.some((line) => line.msg === 'unexpected error'))
  // The error itself is kept, for the case where it was not the outage after all.
  const logged = api.logs.find((line) => line.msg === 'database unavailable')
  t.is(logged?.requestId, response.json.header.id)
})

test('security headers are on every answer, errors included', async (t) => {
  const api = await start(t)
  for (const path of ['/healthcheck/status.json', '/nothing.json', '/probe/boom.json']) {
    const { headers } = await api.request(path)
    t.is(headers.get('x-frame-options'), 'DENY', path)
    t.is(headers.get('x-content-type-options'), 'nosniff', path)
    t.is(headers.get('referrer-policy'), 'same-origin', path)
    t.regex(headers.get('content-security-policy') ?? '', /^default-src 'none'/, path)
  }
})

test('query grammar: filters, ordering, pagination and api-version reach the handler or fail with 400', async (t) => {
  const api = await start(t)
  const ok = await api.request(
    `/probe/list.json?api-version=v2&filter[has-id][]=${ID.toUpperCase()}&filter[has-id][]=${ID}&filter[is-active]=TRUE&order[]=Probe.created%20DESC&page=2&limit=10`,
  )
  t.is(ok.status, 200)
  t.deepEqual(ok.json.body.filter, { 'has-id': [ID, ID], 'is-active': true })
  t.deepEqual(ok.json.body.order, [{ field: 'Probes.created', direction: 'desc' }])
  t.deepEqual(ok.json.header.pagination, { count: 42, page: 2, limit: 10 })
  const bad = await api.request('/probe/list.json?filter[is-active]=maybe')
  t.deepEqual(
    [bad.status, bad.json.header.message],
    [400, 'Invalid filter. "maybe" is not a valid value for filter is-active.'],
  )
  const ids = (n: number) => Array.from({ length: n }, () => `filter[has-id][]=${ID}`).join('&')
  t.is((await api.request(`/probe/list.json?${ids(200)}`)).json.body.filter['has-id'].length, 200)
  const long = await api.request(`/probe/list.json?${ids(201)}`)
  t.deepEqual(
    [long.status, long.json.header.message],
    [400, 'Invalid filter. The filter has-id accepts at most 200 values.'],
  )
  const v1 = await api.request('/probe/list.json?api-version=v1')
  t.deepEqual(
    [v1.status, v1.json.header.message],
    [400, 'API v1 support is deprecated in this version.'],
  )
})

test('CSRF: changing calls need the csrfToken cookie echoed in X-CSRF-Token; bearer calls do not', async (t) => {
  const api = await start(t)
  const body = JSON.stringify({
    username: 'a@keyward.test',
    profile: { first_name: 'A', last_name: 'B' },
  })
  const post = (headers: Record<string, string>) =>
    api.request(`/probe/${ID}.json`, {
      method: 'POST',
      role: 'user',
      csrf: false,
      body,
      headers: { 'content-type': 'application/json', ...headers },
    })
  const noCookie = await post({ 'x-csrf-token': 'abc' })
  t.deepEqual(
    [noCookie.status, noCookie.json.header.message],
    [403, 'Missing or incorrect CSRF cookie type.'],
  )
  const mismatch = await post({ cookie: 'csrfToken=abc', 'x-csrf-token': 'abd' })
  t.deepEqual(
    [mismatch.status, mismatch.json.header.message],
    [
      403,
      'CSRF token from either the request body or request headers did not match or is missing.',
    ],
  )
  t.is((await post({ cookie: 'csrfToken=abc', 'x-csrf-token': 'abc' })).status, 201)
  t.is(
    (await post({ authorization: 'Bearer anything' })).status,
    201,
    'JWT-style requests are exempt',
  )
})

test('request logs name the request and never its cookies or tokens', async (t) => {
  const api = await start(t)
  await api.request('/settings.json?token=abc', {
    headers: { cookie: 'passbolt_session=secret-cookie', authorization: 'Bearer secret-token' },
  })
  const line = api.logs.find((l) => l.msg === 'request' && l.path === '/settings.json')
  t.truthy(line)
  const all = JSON.stringify(api.logs)
  for (const secret of ['secret-cookie', 'secret-token', 'token=abc'])
    t.false(all.includes(secret), secret)
})
