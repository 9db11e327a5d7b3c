// `api start --tls-cert --tls-key`: HTTPS served by the server itself, over HTTP/1.1 and
// HTTP/2, TLS 1.2 or newer only, and a renewed certificate taken on SIGHUP.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { connect as http2Connect } from 'node:http2'
import { request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect as tlsConnect } from 'node:tls'
import test from 'ava'
import { FIXTURE_KEYS_ENV } from '../helpers/api.ts'
import { runApi, startApiProcess } from '../helpers/api-process.ts'
import { makeCertificate } from '../helpers/certificates.ts'
import { createTestDatabase } from '../helpers/database.ts'

const folder = (t: import('ava').ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-tls-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** The certificate a new TLS connection is given, and the protocol agreed. */
const handshake = (url: string, options: { ca: string; maxVersion?: 'TLSv1.1' | 'TLSv1.2' }) =>
  new Promise<{ fingerprint: string; protocol: string | null }>((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const socket = tlsConnect(
      {
        host: hostname,
        port: Number(port),
        ca: options.ca,
        maxVersion: options.maxVersion,
        minVersion: 'TLSv1',
      },
      () => {
        const result = {
          fingerprint: socket.getPeerCertificate().fingerprint256,
          protocol: socket.getProtocol(),
        }
        socket.end()
        resolve(result)
      },
    )
    socket.once('error', reject)
  })

const getHttp1 = (url: string, ca: string) =>
  new Promise<{ status: number; body: string; version: string; hsts?: string }>(
    (resolve, reject) => {
      const req = httpsRequest(url, { ca, agent: false }, (res) => {
        let body = ''
        res.on('data', (chunk) => {
          body += chunk
        })
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body,
            version: res.httpVersion,
            hsts: res.headers['strict-transport-security'] as string | undefined,
          }),
        )
      })
      req.once('error', reject)
      req.end()
    },
  )

const getHttp2 = (url: string, path: string, ca: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const session = http2Connect(url, { ca })
    session.once('error', reject)
    const stream = session.request({ ':path': path })
    let status = 0
    let body = ''
    stream.on('response', (headers) => {
      status = Number(headers[':status'])
    })
    stream.on('data', (chunk) => {
      body += chunk
    })
    stream.on('end', () => {
      session.close()
      resolve({ status, body })
    })
    stream.once('error', reject)
    stream.end()
  })

test('api start serves HTTPS over HTTP/1.1 and HTTP/2, refuses old TLS, and reloads a renewed certificate on SIGHUP', async (t) => {
  const dir = folder(t)
  const first = makeCertificate(dir, 'first', 'keyward-first')
  const cert = join(dir, 'live.crt')
  const key = join(dir, 'live.key')
  copyFileSync(first.cert, cert)
  copyFileSync(first.key, key)
  const env = {
    ...FIXTURE_KEYS_ENV,
    DATABASE_URL: await createTestDatabase(t),
    KEYWARD_DATA_DIR: join(dir, 'data'),
    KEYWARD_PORT: '0',
  }
  const api = await startApiProcess(t, ['--tls-cert', cert, '--tls-key', key], env)
  t.true(api.url.startsWith('https://127.0.0.1:'), api.url)

  const one = await getHttp1(`${api.url}/healthcheck/status.json`, first.pem)
  t.is(one.status, 200)
  t.is(one.version, '1.1')
  t.is(JSON.parse(one.body).body, 'OK')
  t.regex(one.hsts ?? '', /max-age=\d{7,}/)

  const two = await getHttp2(api.url, '/healthcheck/status.json', first.pem)
  t.is(two.status, 200)
  t.is(JSON.parse(two.body).body, 'OK')

  const modern = await handshake(api.url, { ca: first.pem })
  t.is(modern.fingerprint, first.fingerprint)
  t.true(['TLSv1.2', 'TLSv1.3'].includes(modern.protocol ?? ''), String(modern.protocol))
  await t.throwsAsync(handshake(api.url, { ca: first.pem, maxVersion: 'TLSv1.1' }))

  // A plain-HTTP request to the HTTPS port gets no answer of the API.
  const plain = await fetch(`${api.url.replace('https:', 'http:')}/healthcheck/status.json`).then(
    (response) => response.status,
    () => 'refused',
  )
  t.not(plain, 200)

  // Renewal: the files are replaced, then the process is told.
  const second = makeCertificate(dir, 'second', 'keyward-second')
  copyFileSync(second.cert, cert)
  copyFileSync(second.key, key)
  t.is((await handshake(api.url, { ca: first.pem })).fingerprint, first.fingerprint)
  api.child.kill('SIGHUP')
  const deadline = Date.now() + 10_000
  let seen = ''
  while (Date.now() < deadline) {
    seen = await handshake(api.url, { ca: second.pem }).then(
      (r) => r.fingerprint,
      () => '',
    )
    if (seen === second.fingerprint) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  t.is(seen, second.fingerprint)
  t.is((await getHttp1(`${api.url}/healthcheck/status.json`, second.pem)).status, 200)

  // A broken renewal (not PEM) leaves the running certificate in place.
  copyFileSync(join(dir, 'first.key'), cert)
  api.child.kill('SIGHUP')
  await new Promise((resolve) => setTimeout(resolve, 300))
  t.is((await handshake(api.url, { ca: second.pem })).fingerprint, second.fingerprint)
  t.regex(api.output(), /TLS certificate not reloaded/)
  t.is(await api.stop(), 0)
})

test('api start with an unreadable certificate or only half of the pair stops with one clear line', async (t) => {
  const dir = folder(t)
  const { key } = makeCertificate(dir, 'only')
  const env = {
    ...FIXTURE_KEYS_ENV,
    KEYWARD_DATA_DIR: join(dir, 'data'),
    DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
  }
  const missing = await runApi(
    ['start', '--tls-cert', join(dir, 'absent.crt'), '--tls-key', key],
    env,
  )
  t.is(missing.code, 1)
  t.regex(missing.stderr, /TLS certificate .*absent\.crt: ENOENT/)
  const half = await runApi(['start', '--tls-key', key], env)
  t.is(half.code, 1)
  t.regex(half.stderr, /KEYWARD_TLS_CERT: HTTPS needs both a certificate and its key/)
})
