// Benchmark: server time of a full GPGAuth login and of a JWT login, with RSA-3072 and
// Curve25519 user keys, and the throughput of bearer-authenticated GET /users/me.json.
// Server: a real `api start` process; client crypto happens between the timed requests.
// Usage: node bin/run.js bench/api-auth.ts [--logins 20] [--seconds 10] [--connections 50]
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs, promisify } from 'node:util'
import autocannon from 'autocannon'
import * as openpgp from 'openpgp'
import pg from 'pg'
import {
  decodeUserAuthToken,
  generateUserKey,
  nonce,
  TestClient,
  type TestUserKey,
} from '../test/helpers/client.ts'
import { makeChallenge } from '../test/helpers/jwt.ts'

const { values } = parseArgs({
  options: {
    logins: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
  },
})
const bin = fileURLToPath(new URL('../bin/api.js', import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), 'keyward-bench-auth-'))
const port = 19000 + Math.floor(Math.random() * 1000)
const base = `http://127.0.0.1:${port}`
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' })
await admin.connect()
await admin.query('drop database if exists keyward_bench_auth with (force)')
await admin.query('create database keyward_bench_auth')
await admin.end()
const env = {
  ...process.env,
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/keyward_bench_auth',
  KEYWARD_DATA_DIR: dataDir,
  KEYWARD_PORT: String(port),
  KEYWARD_APP_URL: `${base}/`,
  KEYWARD_AUTH_RATE_LIMIT: '100000',
  KEYWARD_LOG_LEVEL: 'warn',
}

const server = spawn(process.execPath, [bin, 'start'], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
})
await new Promise<void>((resolve) => {
  let out = ''
  server.stdout!.on('data', (chunk) => {
    out += chunk
    if (out.includes('listening on')) resolve()
  })
})
server.stdout!.resume()

const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now()
  const result = await fn()
  return [result, performance.now() - started]
}
const stats = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b)
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1)
  return `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms`
}

const makeUser = async (email: string, type: 'ecc' | 'rsa') => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [bin, 'user', 'create', '--username', email, '--first-name', 'Bench', '--last-name', 'User'],
    { env },
  )
  const [userId, token] = stdout.trim().split('/').slice(-2)
  const key = await generateUserKey(email, type)
  const client = new TestClient(base)
  const done = await client.json(`/setup/complete/${userId}.json`, 'POST', {
    authenticationtoken: { token },
    gpgkey: { armored_key: key.armoredPublicKey },
  })
  if (done.status !== 200) throw new Error(`setup failed: ${done.text}`)
  return { userId, key }
}

/** GPGAuth stages 0-2; returns the summed time of the three requests (client crypto excluded). */
const gpgAuth = async (key: TestUserKey, serverKey: openpgp.Key) => {
  const client = new TestClient(base)
  const encrypted = (await openpgp.encrypt({
    message: await openpgp.createMessage({ text: nonce() }),
    encryptionKeys: serverKey,
  })) as string
  const [, t0] = await timed(() =>
    client.postForm('/auth/verify.json', {
      'data[gpg_auth][keyid]': key.fingerprint,
      'data[gpg_auth][server_verify_token]': encrypted,
    }),
  )
  const [stage1, t1] = await timed(() =>
    client.postForm('/auth/login.json', { 'data[gpg_auth][keyid]': key.fingerprint }),
  )
  const { data } = await openpgp.decrypt({
    message: await openpgp.readMessage({
      armoredMessage: decodeUserAuthToken(stage1.headers.get('x-gpgauth-user-auth-token')!),
    }),
    decryptionKeys: key.privateKey,
  })
  const [stage2, t2] = await timed(() =>
    client.postForm('/auth/login.json', {
      'data[gpg_auth][keyid]': key.fingerprint,
      'data[gpg_auth][user_token_result]': String(data),
    }),
  )
  if (stage2.status !== 200) throw new Error(`login failed: ${stage2.text}`)
  return t0 + t1 + t2
}

try {
  const probe = new TestClient(base)
  const serverKey = await openpgp.readKey({
    armoredKey: (await probe.fetch('/auth/verify.json')).json.body.keydata,
  })
  let bearer = ''
  for (const type of ['rsa', 'ecc'] as const) {
    const { userId, key } = await makeUser(`bench-${type}@keyward.test`, type)
    const gpg: number[] = []
    const jwt: number[] = []
    for (let i = 0; i < Number(values.logins); i++) {
      gpg.push(await gpgAuth(key, serverKey))
      const challenge = await makeChallenge(probe, key, base)
      const [response, ms] = await timed(() =>
        probe.json('/auth/jwt/login.json', 'POST', { user_id: userId, challenge }),
      )
      if (response.status !== 200) throw new Error(`jwt login failed: ${response.text}`)
      jwt.push(ms)
      if (type === 'ecc' && !bearer) {
        const { data } = await openpgp.decrypt({
          message: await openpgp.readMessage({ armoredMessage: response.json.body.challenge }),
          decryptionKeys: key.privateKey,
        })
        bearer = JSON.parse(String(data)).access_token
      }
    }
    const label = type === 'rsa' ? 'RSA-3072' : 'Curve25519'
    console.log(
      `${label} user key, ${values.logins} logins: GPGAuth stages 0-2 ${stats(gpg)}; JWT login ${stats(jwt)}${type === 'ecc' ? ' (target < 30 ms)' : ''}`,
    )
  }
  const result = await autocannon({
    url: `${base}/users/me.json`,
    connections: Number(values.connections),
    duration: Number(values.seconds),
    headers: { authorization: `Bearer ${bearer}` },
  })
  console.log(
    `Bearer GET /users/me.json, ${values.connections} connections, ${values.seconds} s: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx} (target >= 4000 req/s, p99 < 25 ms)`,
  )
} finally {
  server.kill('SIGTERM')
  await new Promise((resolve) => server.once('exit', resolve))
  rmSync(dataDir, { recursive: true, force: true })
}
