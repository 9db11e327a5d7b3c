// Start and stop: graceful shutdown, the CLI's start/healthcheck/openapi commands, the embedded
// PostgreSQL, and the server key made on first start.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { createConnection, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { pino } from 'pino'
import { z } from 'zod'
import { bootApp, shutdownApp } from '../../api/app.ts'
import { loadConfig } from '../../api/config.ts'
import { allMigrations } from '../../api/orm.ts'
import { definePlugin, defineRoute } from '../../api/plugin.ts'
import { listen } from '../../api/server.ts'
import { loadServerKey, ServerKeyError } from '../../api/server-key.ts'
import { plugins } from '../../plugins/index.ts'
import { FIXTURE_KEYS_ENV, SERVER_KEY, startTestApi } from '../helpers/api.ts'
import { createTestDatabase } from '../helpers/database.ts'

const bin = fileURLToPath(new URL('../../bin/api.js', import.meta.url))
const silent = pino({ level: 'silent' })
const tempDir = (t: import('ava').ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-life-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })

test('closing the server lets an in-flight request finish and refuses new ones', async (t) => {
  const slow = definePlugin({
    name: 'slow',
    routes: [
      defineRoute({
        method: 'GET',
        path: '/slow.json',
        action: 'Slow.get',
        summary: 'slow',
        auth: 'public',
        permission: 'none',
        response: z.string(),
        handler: () => new Promise((resolve) => setTimeout(() => resolve('done'), 400)),
      }),
    ],
  })
  const config = loadConfig({
    env: {
      DATABASE_URL: await createTestDatabase(t),
      KEYWARD_DATA_DIR: tempDir(t),
      ...FIXTURE_KEYS_ENV,
    },
  })
  const app = await bootApp({ config, plugins: [...plugins, slow], logger: silent })
  const running = await listen(app, 0, '127.0.0.1')
  const inFlight = fetch(`${running.url}/slow.json`).then((r) => r.json())
  await new Promise((resolve) => setTimeout(resolve, 100))
  const closed = running.close()
  t.is((await inFlight).body, 'done')
  await closed
  await t.throwsAsync(fetch(`${running.url}/healthcheck/status.json`))
  await shutdownApp(app)
})

test('api start serves, and SIGTERM stops it cleanly with exit code 0', async (t) => {
  const env = {
    ...process.env,
    DATABASE_URL: await createTestDatabase(t),
    KEYWARD_DATA_DIR: tempDir(t),
    ...FIXTURE_KEYS_ENV,
    KEYWARD_LOG_LEVEL: 'warn',
  }
  const child = spawn(process.execPath, [bin, 'start', '--port', '0'], { env })
  let out = ''
  child.stdout.on('data', (chunk) => {
    out += chunk
  })
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready: ${out}`)), 30_000)
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/\S+?)\/ /.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve(match[1])
      }
    })
  })
  const response = await fetch(`${url}/healthcheck/status.json`)
  t.is(response.status, 200)
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  t.is(await exit, 0)
})

test('api start with bad configuration prints one line per bad value and exits 1', (t) => {
  const run = spawnSync(process.execPath, [bin, 'start'], {
    env: {
      ...process.env,
      KEYWARD_PORT: 'eighty',
      KEYWARD_LOG_LEVEL: 'chatty',
      KEYWARD_CONFIG: '',
    },
    encoding: 'utf8',
  })
  t.is(run.status, 1)
  t.deepEqual(run.stderr.trim().split('\n').sort(), [
    'KEYWARD_LOG_LEVEL: Invalid option: expected one of "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent"',
    'KEYWARD_PORT: Invalid input: expected number, received NaN',
  ])
})

test('api openapi prints the document; api healthcheck reports and exits 0 when healthy', async (t) => {
  // The document with its examples is over a megabyte, spawnSync's default output ceiling.
  const openapi = spawnSync(process.execPath, [bin, 'openapi'], {
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  })
  t.is(openapi.status, 0)
  t.is(JSON.parse(openapi.stdout).openapi, '3.1.0')
  const env = {
    ...process.env,
    DATABASE_URL: await createTestDatabase(t),
    KEYWARD_DATA_DIR: tempDir(t),
    ...FIXTURE_KEYS_ENV,
  }
  const before = spawnSync(process.execPath, [bin, 'healthcheck'], { env, encoding: 'utf8' })
  t.is(before.status, 1, 'an unmigrated database fails the checks')
  t.regex(before.stdout, /FAIL database\.tablesCount/)
  const migrate = spawnSync(process.execPath, [bin, 'migrate'], { env, encoding: 'utf8' })
  t.is(
    migrate.stdout.trim(),
    `applied: ${allMigrations(plugins)
      .map((migration) => migration.name)
      .join(', ')}`,
  )
  const after = spawnSync(process.execPath, [bin, 'healthcheck'], { env, encoding: 'utf8' })
  t.is(after.status, 0, after.stdout)
  t.regex(after.stdout, /ok {3}database\.connect: the database answers/)
  t.regex(after.stdout, /warn ssl\.sslFullBaseUrl/)
})

test('without DATABASE_URL an embedded PostgreSQL starts under the data folder, and stops with the app', async (t) => {
  const dataDir = tempDir(t)
  const port = 30000 + Math.floor(Math.random() * 20000)
  const env = {
    KEYWARD_DATA_DIR: dataDir,
    KEYWARD_EMBEDDED_PG_PORT: String(port),
    ...FIXTURE_KEYS_ENV,
  }
  const first = await bootApp({ config: loadConfig({ env }), plugins, logger: silent })
  let firstStopped = false
  t.teardown(() => (firstStopped ? undefined : shutdownApp(first)))
  t.true(first.database.embedded)
  t.true(await portOpen(port))
  t.true(existsSync(join(dataDir, 'postgres', 'PG_VERSION')))
  t.is(statSync(join(dataDir, 'postgres-password')).mode & 0o777, 0o600)
  // A second process on the same data folder (say `api user create` beside `api start`) uses the
  // running cluster, and leaving does not stop it.
  const beside = await bootApp({ config: loadConfig({ env }), plugins, logger: silent })
  await shutdownApp(beside)
  t.true(await portOpen(port), 'the first process still has its database')
  await shutdownApp(first)
  firstStopped = true
  t.false(await portOpen(port), 'the embedded database stopped')
  // A second start reuses the data: the roles seeded by the first start are still there.
  const second = await bootApp({ config: loadConfig({ env }), plugins, logger: silent })
  t.teardown(() => shutdownApp(second))
  const running = await listen(second, 0, '127.0.0.1')
  t.teardown(() => running.close())
  t.is((await (await fetch(`${running.url}/healthcheck/status.json`)).json()).body, 'OK')
})

test('the server key is generated owner-only on first start and reused after', async (t) => {
  const dataDir = tempDir(t)
  const config = loadConfig({ env: { KEYWARD_DATA_DIR: dataDir } })
  const first = await loadServerKey(config, silent)
  const privatePath = join(dataDir, 'gpg', 'serverkey_private.asc')
  t.is(statSync(privatePath).mode & 0o777, 0o600)
  t.regex(first.fingerprint, /^[0-9A-F]{40}$/)
  t.is((await loadServerKey(config, silent)).fingerprint, first.fingerprint)
  const mismatched = loadConfig({
    env: {
      KEYWARD_DATA_DIR: dataDir,
      KEYWARD_SERVER_KEY_PUBLIC: SERVER_KEY.publicPath,
    },
  })
  await t.throwsAsync(loadServerKey(mismatched, silent), {
    instanceOf: ServerKeyError,
    message: 'server key: the public and private key files do not belong together',
  })
})

test('startTestApi helper works against its own database', async (t) => {
  const api = await startTestApi(t)
  t.is((await api.request('/healthcheck/status.json')).status, 200)
})

test('the JWT key pair (RSA 4096) is generated owner-only when none is configured', async (t) => {
  const { loadJwtKeys } = await import('../../plugins/jwt/keys.ts')
  const dataDir = tempDir(t)
  const config = loadConfig({ env: { KEYWARD_DATA_DIR: dataDir } })
  const keys = await loadJwtKeys({ config, logger: silent } as never)
  t.is(statSync(join(dataDir, 'jwt', 'jwt.key')).mode & 0o777, 0o600)
  t.is(keys.jwk.alg, 'RS256')
  t.is(Buffer.from(keys.jwk.n!, 'base64url').length * 8, 4096)
  const again = await loadJwtKeys({ config, logger: silent } as never)
  t.is(again.jwk.n, keys.jwk.n, 'reused on the next start')
})

test('api start on a port in use is one error line and exit 1', async (t) => {
  const blocker = createServer()
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => blocker.close(() => resolve())))
  const port = (blocker.address() as { port: number }).port
  const env = {
    ...process.env,
    DATABASE_URL: await createTestDatabase(t),
    KEYWARD_DATA_DIR: tempDir(t),
    ...FIXTURE_KEYS_ENV,
  }
  const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, 'start', '--port', String(port)], { env })
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.once('exit', (code) => resolve({ code, stderr }))
  })
  t.is(run.code, 1)
  t.is(run.stderr.trim(), `error: listen EADDRINUSE: address already in use 127.0.0.1:${port}`)
})
