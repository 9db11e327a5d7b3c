// Starts a real API server for a test: real PostgreSQL, real HTTP on a free port.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ExecutionContext } from 'ava'
import {
  type AppContext,
  type BootOptions,
  bootApp,
  createLogger,
  shutdownApp,
} from '../../api/app.ts'
import { loadConfig } from '../../api/config.ts'
import { definePlugin, type Plugin } from '../../api/plugin.ts'
import { listen } from '../../api/server.ts'
import { plugins as allPlugins } from '../../plugins/index.ts'
import { createTestDatabase } from './database.ts'
import { readResponse } from './response.ts'

export const JWT_KEY = {
  privatePath: fileURLToPath(new URL('../fixtures/jwt/jwt.key', import.meta.url)),
  publicPath: fileURLToPath(new URL('../fixtures/jwt/jwt.pem', import.meta.url)),
}

export const SERVER_KEY = {
  privatePath: fileURLToPath(new URL('../fixtures/server-key/private.asc', import.meta.url)),
  publicPath: fileURLToPath(new URL('../fixtures/server-key/public.asc', import.meta.url)),
}

/** Environment naming the fixture server and JWT keys, so no test waits for key generation. */
export const FIXTURE_KEYS_ENV = {
  KEYWARD_SERVER_KEY_PRIVATE: SERVER_KEY.privatePath,
  KEYWARD_SERVER_KEY_PUBLIC: SERVER_KEY.publicPath,
  KEYWARD_JWT_PRIVATE_KEY: JWT_KEY.privatePath,
  KEYWARD_JWT_PUBLIC_KEY: JWT_KEY.publicPath,
}

/**
 * Test-only stand-in for the authentication plugins: `x-test-role: admin|user` signs in, as the
 * user `x-test-user` names when it is given.
 */
export const testAuthPlugin = definePlugin({
  name: 'test-auth',
  authenticate: async ({ headers }) => {
    const role = headers['x-test-role']
    if (role !== 'admin' && role !== 'user') return undefined
    const named = headers['x-test-user']
    return {
      id:
        typeof named === 'string'
          ? named
          : role === 'admin'
            ? '00000000-0000-4000-8000-000000000001'
            : '00000000-0000-4000-8000-000000000002',
      username: `${role}@keyward.test`,
      role,
      via: 'test',
    }
  },
})

export interface TestApi {
  url: string
  app: AppContext
  /** Log lines the server wrote, parsed. */
  logs: Record<string, unknown>[]
  /**
   * Sends a request. Changing calls carry a matching csrfToken cookie and X-CSRF-Token header, as
   * the official clients do, unless `csrf: false`.
   */
  request(
    path: string,
    init?: RequestInit & { role?: 'admin' | 'user'; as?: string; csrf?: boolean },
  ): Promise<TestResponse>
  /** Stops the server before the test ends (it is stopped at teardown otherwise). */
  close(): Promise<void>
}

export interface TestResponse {
  status: number
  headers: Headers
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the server answered
  json: any
  text: string
}

export interface TestApiOptions {
  plugins?: readonly Plugin[]
  env?: Record<string, string>
  databaseUrl?: string
  /** Level of the server's logger, whose lines `logs` collects. @default 'info' */
  logLevel?: string
  /** Timing of the mail queue's retries and polls. */
  mailQueue?: BootOptions['mailQueue']
}

export const startTestApi = async (
  t: ExecutionContext,
  options: TestApiOptions = {},
): Promise<TestApi> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'keyward-api-test-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const config = loadConfig({
    env: {
      DATABASE_URL: options.databaseUrl ?? (await createTestDatabase(t)),
      KEYWARD_DATA_DIR: dataDir,
      ...FIXTURE_KEYS_ENV,
      KEYWARD_PORT: '0',
      ...options.env,
    },
  })
  const logs: Record<string, unknown>[] = []
  const logger = createLogger(
    { logLevel: (options.logLevel ?? 'info') as 'info' },
    { write: (line: string) => logs.push(JSON.parse(line)) },
  )
  const app = await bootApp({
    config,
    plugins: options.plugins ?? [...allPlugins, testAuthPlugin],
    logger,
    mailQueue: options.mailQueue,
  })
  const running = await listen(app, config.port, '127.0.0.1')
  let closed: Promise<void> | undefined
  const close = () => {
    closed ??= running.close().then(() => shutdownApp(app))
    return closed
  }
  t.teardown(close)
  return {
    url: running.url,
    app,
    logs,
    close,
    request: async (path, init = {}) => {
      const { role, as, csrf = true, ...rest } = init
      const headers = new Headers(rest.headers)
      if (role) headers.set('x-test-role', role)
      if (as) headers.set('x-test-user', as)
      const method = (rest.method ?? 'GET').toUpperCase()
      if (csrf && !['GET', 'HEAD'].includes(method) && !headers.has('x-csrf-token')) {
        headers.set('x-csrf-token', 'test-csrf-token')
        headers.set(
          'cookie',
          [headers.get('cookie'), 'csrfToken=test-csrf-token'].filter(Boolean).join('; '),
        )
      }
      return readResponse(await fetch(`${running.url}${path}`, { ...rest, headers }))
    },
  }
}

/**
 * Runs `change` (a direct database write) and waits until the server has heard it on its change
 * feed, as it would within milliseconds of any commit.
 */
export const changeAndWait = async (api: TestApi, change: () => Promise<unknown>) => {
  await feedSettled(api)
  const before = api.app.changes.generation
  await change()
  const deadline = Date.now() + 5_000
  while (api.app.changes.generation === before) {
    if (Date.now() > deadline) throw new Error('the change feed announced nothing')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  await feedSettled(api)
}

/** Waits until the change feed has been quiet for 50 ms (earlier writes all announced). */
export const feedSettled = async (api: TestApi) => {
  for (;;) {
    const seen = api.app.changes.generation
    await new Promise((resolve) => setTimeout(resolve, 50))
    if (api.app.changes.generation === seen) return
  }
}
