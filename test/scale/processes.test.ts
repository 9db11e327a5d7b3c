// Several API processes on one PostgreSQL behave as one: a session opened on one process works
// on another, a mail queued once is sent once while both run the queue, killing one process
// mid-write loses no acknowledged write while the other keeps serving, and `--workers 2` serves
// one port from two processes, replacing one that dies.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { get as httpGet } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import test, { type ExecutionContext } from 'ava'
import { FIXTURE_KEYS_ENV, startTestApi } from '../helpers/api.ts'
import { gpgAuthLogin, TestClient } from '../helpers/client.ts'
import { createTestDatabase, query } from '../helpers/database.ts'
import { jwtLogin } from '../helpers/jwt.ts'
import { startSmtp } from '../helpers/smtp.ts'
import { createActiveUser, type TestUser } from '../helpers/users.ts'

const bin = fileURLToPath(new URL('../../bin/api.js', import.meta.url))

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

const answers = async (url: string) => {
  try {
    return (await fetch(`${url}/healthcheck/status.json`)).status === 200
  } catch {
    return false
  }
}

interface Process {
  url: string
  child: ChildProcess
  exited: Promise<number | null>
  /** What the process wrote so far, both streams (its log lines at the level set, and crashes). */
  output: () => string
}

/** Starts `api start` with these arguments and waits until it answers. */
const startProcess = async (
  t: ExecutionContext,
  env: NodeJS.ProcessEnv,
  args: string[] = [],
): Promise<Process> => {
  const port = await freePort()
  const child = spawn(process.execPath, [bin, 'start', '--port', String(port), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  // Both streams, interleaved as written: the log lines go to stdout, crashes to stderr.
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk).slice(-64_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      await Promise.race([exited, delay(10_000)])
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
  })
  const url = `http://127.0.0.1:${port}`
  // Each process bundles the sources as it starts: slow on a loaded machine, more so with workers.
  const deadline = Date.now() + 180_000
  while (!(await answers(url))) {
    if (child.exitCode !== null) throw new Error(`api start exited: ${output}`)
    if (Date.now() > deadline) throw new Error(`api start never answered: ${output}`)
    await delay(200)
  }
  return { url, child, exited, output: () => output }
}

/** A database with an administrator and a user, and the environment of processes serving it. */
const prepare = async (t: ExecutionContext, smtpUrl: string) => {
  const databaseUrl = await createTestDatabase(t)
  const seed = await startTestApi(t, { databaseUrl, env: { KEYWARD_SMTP_URL: smtpUrl } })
  const admin = await createActiveUser(seed, 'admin@keyward.test', { role: 'admin' })
  const user = await createActiveUser(seed, 'ada@keyward.test')
  const dataDir = mkdtempSync(join(tmpdir(), 'keyward-processes-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const env = {
    ...FIXTURE_KEYS_ENV,
    DATABASE_URL: databaseUrl,
    KEYWARD_DATA_DIR: dataDir,
    KEYWARD_SMTP_URL: smtpUrl,
    // One address for all, as behind a load balancer.
    KEYWARD_APP_URL: 'https://vault.keyward.test/',
    KEYWARD_LOG_LEVEL: 'warn',
  }
  return { databaseUrl, env, admin, user }
}

/** A client of `url` holding the cookies `from` holds (the same browser, another process). */
const sameBrowser = (from: TestClient, url: string) => {
  const client = new TestClient(url)
  for (const [name, value] of from.cookies) client.cookies.set(name, value)
  return client
}

const signIn = async (url: string, key: TestUser) => {
  const client = new TestClient(url)
  const { stage2 } = await gpgAuthLogin(client, key)
  if (stage2.status !== 200) throw new Error(`sign-in refused: ${stage2.status}`)
  return client
}

test('two processes on one database: sessions, tokens and the mail queue are shared', async (t) => {
  t.timeout(300_000)
  const smtp = await startSmtp(t)
  const { databaseUrl, env, user } = await prepare(t, smtp.url)
  const a = await startProcess(t, env)
  const b = await startProcess(t, env)

  const onA = await signIn(a.url, user)
  const me = await sameBrowser(onA, b.url).fetch('/users/me.json')
  t.is(me.status, 200, 'the session opened on A works on B')
  t.is(me.json.body.id, user.id)
  const jwt = await jwtLogin(new TestClient(b.url), user.id, user, 'https://vault.keyward.test')
  t.is(jwt.response.status, 200)
  const bearer = await new TestClient(a.url).fetch('/users/me.json', {
    headers: { authorization: `Bearer ${jwt.answer!.access_token}` },
  })
  t.is(bearer.status, 200, 'the access token made by B works on A')
  const logout = await sameBrowser(onA, b.url).fetch('/auth/logout.json', { method: 'POST' })
  t.is(logout.status, 200)
  t.is((await sameBrowser(onA, a.url).fetch('/users/me.json')).status, 401, 'ended everywhere')

  // Thirty mails committed at once: both processes hear of them and race for them.
  const before = smtp.received.length
  const recipients = Array.from({ length: 30 }, (_, n) => `queued${n}@keyward.test`)
  await query(
    databaseUrl,
    `insert into mail_queue (id, recipient, subject, body)
     select gen_random_uuid(), r, 'Queued', 'body' from unnest($1::text[]) r`,
    [recipients],
  )
  const deadline = Date.now() + 30_000
  while (smtp.received.length < before + recipients.length && Date.now() < deadline)
    await delay(100)
  await delay(500)
  const sent = smtp.received.slice(before)
  t.deepEqual(sent.map((mail) => mail.to[0]).sort(), [...recipients].sort(), 'each mail once')
  t.deepEqual(await query(databaseUrl, 'select id from mail_queue'), [])
})

test('killing one process mid-write loses no acknowledged write; the other keeps serving', async (t) => {
  // Three processes' starts and sixty writes: slow on a loaded machine.
  t.timeout(300_000)
  const smtp = await startSmtp(t)
  const { databaseUrl, env, admin } = await prepare(t, smtp.url)
  const a = await startProcess(t, env)
  const b = await startProcess(t, env)
  const onA = await signIn(a.url, admin)
  const create = (client: TestClient, username: string) =>
    client
      .fetch('/users.json', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, profile: { first_name: 'W', last_name: 'Rite' } }),
      })
      .then(
        (response) => response.status,
        () => 0,
      )
  const usernames = Array.from(
    { length: 60 },
    (_, n) => `w${n}-${randomUUID().slice(0, 8)}@keyward.test`,
  )
  const acknowledged: string[] = []
  const statuses: number[] = []
  let answered = 0
  const writes = usernames.map(async (username, n) => {
    await delay(n * 15)
    const status = await create(onA, username)
    answered++
    statuses.push(status)
    if (status === 200) acknowledged.push(username)
  })
  while (acknowledged.length < 10 && answered < usernames.length) await delay(10)
  a.child.kill('SIGKILL')
  await Promise.all(writes)
  t.true(acknowledged.length >= 10, `answers: ${statuses.join(' ')}`)
  t.true(acknowledged.length < usernames.length, 'some writes were cut off by the kill')
  // Cut off (0) or done (200): nothing else.
  t.deepEqual(
    [...new Set(statuses)].filter((status) => status !== 0 && status !== 200),
    [],
  )

  const stored = new Set(
    (
      await query(databaseUrl, 'select username from users where username = any($1)', [usernames])
    ).map((row) => row.username as string),
  )
  for (const username of acknowledged) t.true(stored.has(username), `${username} was kept`)

  const onB = sameBrowser(onA, b.url)
  t.is((await onB.fetch('/users/me.json')).status, 200, 'B serves the same session')
  t.is(await create(onB, 'after-the-kill@keyward.test'), 200)
  // Every committed invitation goes out, from B, even those A had claimed when it died.
  const invited = [...stored, 'after-the-kill@keyward.test']
  const deadline = Date.now() + 40_000
  const mailed = () => new Set(smtp.received.flatMap((mail) => mail.to))
  while (invited.some((username) => !mailed().has(username)) && Date.now() < deadline) {
    // New mail wakes the queue of every process; a row A held is due again at once.
    await delay(500)
  }
  for (const username of invited) t.true(mailed().has(username), `${username} was invited`)
  const copies = smtp.received.filter((mail) => invited.includes(mail.to[0])).length
  // A mail A had handed to the SMTP server but not yet marked sent when it died goes twice.
  t.true(copies - invited.length <= 1, `${copies - invited.length} duplicates`)
})

test('--workers 2 serves one port from two processes and replaces a worker that dies', async (t) => {
  t.timeout(300_000)
  const smtp = await startSmtp(t)
  const { env, user } = await prepare(t, smtp.url)
  const server = await startProcess(t, env, ['--workers', '2'])
  const workers = () =>
    execFileSync('ps', ['-o', 'pid=', '--ppid', String(server.child.pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter(Boolean)
  const deadline = Date.now() + 30_000
  while (workers().length < 2 && Date.now() < deadline) await delay(200)
  const [first, second] = workers()
  t.truthy(second)

  // The three GPGAuth stages may land on either worker: their state is in PostgreSQL.
  const client = await signIn(server.url, user)
  for (let n = 0; n < 10; n++) t.is((await client.fetch('/users/me.json')).status, 200)

  process.kill(first, 'SIGKILL')
  // Connections to the dead worker fail; new ones go to the other. A connection the primary
  // accepted just as the worker died may never be handed on (Node's round-robin cluster), so a
  // request there waits until the client gives up. As a real client would, each request is sent
  // again, on a connection of its own each time, up to five times.
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  const tries: string[] = []
  const me = async (attempt = 1): Promise<number> => {
    try {
      return await statusOnNewConnection(`${server.url}/users/me.json`, { cookie }, 10_000)
    } catch (error) {
      tries.push(`attempt ${attempt} at ${new Date().toISOString()}: ${error}`)
      if (attempt < 5) return me(attempt + 1)
      throw new Error(
        `no answer after ${attempt} attempts:\n${tries.join('\n')}\nworkers: ${workers().join(', ')}\nserver output:\n${server.output().slice(-4000)}`,
      )
    }
  }
  for (let n = 0; n < 10; n++) t.is(await me(), 200)
  const replaced = Date.now() + 30_000
  while (!(workers().length === 2 && !workers().includes(first)) && Date.now() < replaced)
    await delay(200)
  t.is(workers().length, 2, 'a new worker replaced the dead one')
  t.false(workers().includes(first))
  t.true(workers().includes(second))

  server.child.kill('SIGTERM')
  t.is(await server.exited, 0)
})

test('failed sign-ins spread over two processes meet the shared limit at exactly the configured count', async (t) => {
  t.timeout(300_000)
  const smtp = await startSmtp(t)
  const { env, user } = await prepare(t, smtp.url)
  const limited = { ...env, KEYWARD_AUTH_RATE_LIMIT: '4' }
  const a = await startProcess(t, limited)
  const b = await startProcess(t, limited)
  const statuses: number[] = []
  for (let n = 0; n < 6; n++) {
    const client = new TestClient(n % 2 === 0 ? a.url : b.url)
    const { response } = await jwtLogin(client, user.id, user, 'https://evil.example')
    statuses.push(response.status)
  }
  t.deepEqual(statuses, [400, 400, 400, 400, 429, 429])
})

/** The status of one GET on a connection of its own, or an error once `ms` pass without one. */
const statusOnNewConnection = (url: string, headers: Record<string, string>, ms: number) =>
  new Promise<number>((resolve, reject) => {
    const request = httpGet(url, { agent: false, headers, timeout: ms }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    request.once('timeout', () => request.destroy(new Error(`no answer in ${ms} ms`)))
    request.once('error', reject)
  })

/** One request on a connection of its own, so the cluster hands it to the next worker. */
const getOnNewConnection = (url: string) =>
  new Promise<string>((resolve, reject) => {
    httpGet(url, { agent: false }, (res) => {
      let body = ''
      // A worker killed mid-answer resets the connection after the answer began.
      res.on('error', reject)
      res.on('data', (chunk) => {
        body += chunk
      })
      res.on('end', () =>
        res.statusCode === 200
          ? resolve(body)
          : reject(new Error(`${url} answered ${res.statusCode}: ${body.slice(0, 500)}`)),
      )
    }).on('error', reject)
  })

test('--workers 2: a scrape of /metrics answers the figures of every worker, summed', async (t) => {
  t.timeout(300_000)
  const dataDir = mkdtempSync(join(tmpdir(), 'keyward-processes-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const server = await startProcess(
    t,
    {
      ...FIXTURE_KEYS_ENV,
      DATABASE_URL: await createTestDatabase(t),
      KEYWARD_DATA_DIR: dataDir,
      KEYWARD_LOG_LEVEL: 'warn',
    },
    ['--workers', '2'],
  )
  const workers = () =>
    execFileSync('ps', ['-o', 'pid=', '--ppid', String(server.child.pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim()).length
  const deadline = Date.now() + 60_000
  while (workers() < 2 && Date.now() < deadline) await delay(200)
  // Both workers answer before counting starts.
  for (let n = 0; n < 6; n++) await getOnNewConnection(`${server.url}/healthcheck/status.json`)
  const series =
    'keyward_http_requests_total{method="GET",route="/healthcheck/status.json",status="200"}'
  const count = (text: string) =>
    Number(
      text
        .split('\n')
        .find((line) => line.startsWith(`${series} `))
        ?.split(' ')[1],
    )
  const scrape = () =>
    getOnNewConnection(`${server.url}/metrics`).catch((error: Error) => {
      // The server's own account of a failed scrape (logged with its stack) says which part failed.
      throw new Error(`${error.message}\nserver output:\n${server.output().slice(-4000)}`)
    })
  const before = count(await scrape())
  for (let n = 0; n < 20; n++) await getOnNewConnection(`${server.url}/healthcheck/status.json`)
  // Whichever worker takes each scrape, it reports all 20 (one worker alone saw about half).
  for (let n = 0; n < 4; n++) {
    const text = await scrape()
    t.is(count(text) - before, 20)
    // The queue's depth is the database's, counted by each worker: given once, not summed.
    t.regex(text, /^keyward_mail_queue_depth 0$/m)
  }
  server.child.kill('SIGTERM')
  t.is(await server.exited, 0)
})
