// The resources list read through a cursor and sent as it is read: thousands of resources come
// in the list's order over several batches and chunks, pagination and the envelope's headers are
// those of any answer, and a client that leaves mid-answer gives the database connection back.
import { get, type IncomingMessage } from 'node:http'
import test from 'ava'
import { STALLED_CLIENT_MS } from '../../api/http/row-stream.ts'
import { startTestApi, type TestApi } from '../helpers/api.ts'
import { PASSWORD_AND_DESCRIPTION, sqlOf, team } from '../helpers/vault.ts'

const SYNC = '/resources.json?contain[permission]=1&contain[favorite]=1&contain[tag]=1'
const TREE =
  '/resources.json?contain[permission]=1&contain[favorite]=1&contain[permissions.user.profile]=1'

/** `count` resources owned by `ownerId`, readable by `readerId`, named out of id order. */
const seed = async (
  sql: ReturnType<typeof sqlOf>,
  ownerId: string,
  readerId: string,
  count: number,
  descriptionLength: number,
) => {
  await sql(
    `insert into resources (id, name, username, uri, description, resource_type_id, created_by, modified_by)
     select gen_random_uuid(), md5(i::text), 'user' || i, 'https://example.com/' || i,
       repeat('d', $4::int), $3, $1, $1
     from generate_series(1, $2::int) i`,
    [ownerId, count, PASSWORD_AND_DESCRIPTION, descriptionLength],
  )
  await sql(
    `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
     select gen_random_uuid(), 'Resource', r.id, 'User', u.id, case when u.id = $1 then 15 else 1 end
     from resources r cross join users u where u.id in ($1, $2)`,
    [ownerId, readerId],
  )
  await sql(
    `insert into folders_relations (id, foreign_model, foreign_id, user_id)
     select gen_random_uuid(), 'Resource', r.id, u.id
     from resources r cross join users u where u.id in ($1, $2)`,
    [ownerId, readerId],
  )
}

/** The list as the contain loaders build it, the path the documents must match. */
const onObjects = (url: string) => `${url}&contain[resource-type]=1`

const ids = (body: { id: string }[]) => body.map((resource) => resource.id)

/** A GET on a socket of its own, as a member signed in; the answer is not read. */
const openGet = (api: TestApi, cookies: Map<string, string>, path: string) =>
  new Promise<IncomingMessage>((resolve, reject) => {
    const request = get(`${api.url}${path}`, {
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    })
    request.on('response', resolve)
    request.on('error', reject)
  })

/** The knex pool the ORM (and the cursors) draw from. */
const poolOf = (api: TestApi) =>
  (api.app.orm.em.getKnex().client as unknown as { pool: { numUsed(): number } }).pool

/**
 * Stops this server's periodic work (scheduled jobs, the mail queue's polls and retries), so
 * that the pool's count of connections in use is the lists' alone.
 */
const quiet = async (api: TestApi) => {
  await api.app.jobs.stop()
  await api.app.mailer.stop()
}

const waitFor = async (condition: () => boolean, ms: number) => {
  const deadline = Date.now() + ms
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  return condition()
}

test('2,500 resources come in the list’s order, in several chunks, with the pagination of the object path', async (t) => {
  const api = await startTestApi(t)
  const [ada, bob, eve] = await team(api, ['ada', 'bob', 'eve'])
  await seed(sqlOf(api), ada.id, bob.id, 2_500, 20)

  for (const url of [SYNC, TREE, `${SYNC}&sort=Resources.name&direction=desc`]) {
    const written = await bob.client.fetch(url)
    const loaded = await bob.client.fetch(onObjects(url))
    t.is(written.status, 200, written.text.slice(0, 200))
    t.is(written.json.body.length, 2_500, url)
    t.deepEqual(ids(written.json.body), ids(loaded.json.body), url)
    t.deepEqual(written.json.header.pagination, loaded.json.header.pagination, url)
  }
  const all = ids((await bob.client.fetch(SYNC)).json.body)
  t.deepEqual([...all].sort(), [...new Set(all)].sort(), 'each resource once')

  // Pages of 1,000 are the list's slices; past the end, no rows and the total still counted.
  for (const page of [1, 2, 3]) {
    const answer = await bob.client.fetch(`${SYNC}&limit=1000&page=${page}`)
    t.deepEqual(ids(answer.json.body), all.slice((page - 1) * 1000, page * 1000))
    t.deepEqual(answer.json.header.pagination, { count: 2_500, page, limit: 1000 })
  }
  const past = await bob.client.fetch(`${SYNC}&limit=1000&page=4`)
  t.deepEqual(
    [past.json.body, past.json.header.pagination],
    [[], { count: 2_500, page: 4, limit: 1000 }],
  )
  const empty = await eve.client.fetch(SYNC)
  t.deepEqual(
    [empty.json.body, empty.json.header.pagination],
    [[], { count: 0, page: 1, limit: null }],
  )

  // The answer as it goes out: the headers of any answer, then the envelope in pieces.
  const response = await openGet(api, bob.client.cookies, TREE)
  t.is(response.headers['cache-control'], 'no-store')
  t.regex(String(response.headers['x-request-id']), /^[0-9a-f-]{36}$/)
  t.is(response.headers['content-type'], 'application/json; charset=utf-8')
  const chunks: Buffer[] = []
  for await (const chunk of response) chunks.push(chunk as Buffer)
  t.true(chunks.length > 1, `${chunks.length} chunks`)
  const envelope = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  t.is(envelope.header.id, response.headers['x-request-id'])
  t.is(envelope.header.code, 200)
  t.deepEqual(ids(envelope.body), all)
  t.is(envelope.body[0].permissions.length, 2)
})

test('a client that leaves after the first chunk gives the connection back, and nothing is logged as an error', async (t) => {
  const api = await startTestApi(t)
  await quiet(api)
  const [ada, bob] = await team(api, ['ada', 'bob'])
  // About 25 MB of documents: more than the server reads ahead of a client that stops reading.
  await seed(sqlOf(api), ada.id, bob.id, 2_500, 10_000)
  const pool = poolOf(api)
  await waitFor(() => pool.numUsed() === 0, 5_000)

  for (let attempt = 0; attempt < 3; attempt++) {
    const response = await openGet(api, bob.client.cookies, SYNC)
    const first = await new Promise<Buffer>((resolve) => response.once('data', resolve))
    t.true(first.toString('utf8').startsWith('{"header":{'))
    // The cursor is still open: what the client has not taken is not all read yet.
    t.is(pool.numUsed(), 1)
    response.destroy()
    t.true(await waitFor(() => pool.numUsed() === 0, 5_000), 'the connection went back')
  }
  // A HEAD request gets the headers alone; the list it started reading is let go.
  const head = await bob.client.fetch(SYNC, { method: 'HEAD' })
  t.is(head.status, 200)
  t.true(await waitFor(() => pool.numUsed() === 0, 5_000), 'the HEAD request let go')
  const after = await bob.client.fetch(SYNC)
  t.is(after.status, 200)
  t.is(after.json.body.length, 2_500)
  t.is(pool.numUsed(), 0)
  const errors = api.logs.filter((line) => Number(line.level) >= 50 || line.status === 500)
  t.deepEqual(errors, [])
  t.true(api.logs.some((line) => line.msg === 'client left before the answer ended'))
})

test('a failure before the first byte is an error answer; one after it cuts the answer, is logged, and the pool recovers', async (t) => {
  const api = await startTestApi(t)
  await quiet(api)
  const [ada, bob] = await team(api, ['ada', 'bob'])
  const sql = sqlOf(api)
  await seed(sql, ada.id, bob.id, 2_500, 10_000)
  const pool = poolOf(api)

  // The statement fails: the answer has not started, so it is the usual envelope.
  await sql('alter table favorites rename to favorites_away')
  const failed = await bob.client.fetch(SYNC)
  t.is(failed.status, 500)
  t.like(failed.json.header, { status: 'error', code: 500 })
  await sql('alter table favorites_away rename to favorites')
  t.true(await waitFor(() => pool.numUsed() === 0, 5_000))
  t.is((await bob.client.fetch(SYNC)).status, 200)
  // The server lets go of the list's connection once its last bytes are written, which may be
  // after the client has read them.
  t.true(await waitFor(() => pool.numUsed() === 0, 5_000))

  // The database connection dies mid-answer: the client sees its answer cut, not a success.
  // The client takes the first chunk and stops reading, so the server still holds most of the
  // list (25 MB, more than it reads ahead) and its cursor is open when the backend is killed.
  const response = await openGet(api, bob.client.cookies, SYNC)
  const body: Buffer[] = []
  const outcome = new Promise<string>((resolve) => {
    response.on('end', () => resolve('ended'))
    response.on('aborted', () => resolve('aborted'))
    response.on('error', () => resolve('aborted'))
    response.on('close', () => resolve(response.complete ? 'ended' : 'aborted'))
  })
  await new Promise<void>((resolve) =>
    response.once('data', (chunk: Buffer) => {
      response.pause()
      body.push(chunk)
      resolve()
    }),
  )
  response.on('data', (chunk: Buffer) => body.push(chunk))
  t.is(pool.numUsed(), 1)
  const [killed] = await sql(
    `select count(pg_terminate_backend(pid)) as n from pg_stat_activity
     where datname = current_database() and pid <> pg_backend_pid() and query like '%__position%'`,
  )
  t.is(Number(killed.n), 1)
  response.resume()
  t.is(await outcome, 'aborted')
  t.throws(() => JSON.parse(Buffer.concat(body).toString('utf8')))
  t.true(await waitFor(() => pool.numUsed() === 0, 5_000), 'the connection went back')
  t.true(await waitFor(() => api.logs.some((line) => line.msg === 'answer cut by an error'), 5_000))
  const after = await bob.client.fetch(SYNC)
  t.is(after.status, 200)
  t.is(after.json.body.length, 2_500)
})

test('a client that stops reading has its answer cut once the stall limit passes, and the connection goes back', async (t) => {
  t.timeout(90_000)
  const api = await startTestApi(t)
  await quiet(api)
  const [ada, bob] = await team(api, ['ada', 'bob'])
  // About 50 MB: more than the read-ahead and both ends' socket buffers hold.
  await seed(sqlOf(api), ada.id, bob.id, 5_000, 10_000)
  const pool = poolOf(api)
  const started = Date.now()
  const response = await openGet(api, bob.client.cookies, SYNC)
  response.pause()
  await new Promise((resolve) => setTimeout(resolve, 5_000))
  t.is(pool.numUsed(), 1, 'held while the client may still read')
  t.true(await waitFor(() => pool.numUsed() === 0, STALLED_CLIENT_MS + 10_000))
  t.true(Date.now() - started >= STALLED_CLIENT_MS)
  t.true(api.logs.some((line) => line.msg === 'answer cut: the client stopped reading'))
  response.destroy()
  t.is((await bob.client.fetch(`${SYNC}&limit=1`)).status, 200)
})
