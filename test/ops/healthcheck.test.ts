// `api healthcheck` before going live: HTTPS certificate and its host, the public address
// reached, server key fingerprint, a real test mail, the clock, migrations and free space.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'ava'
import { FIXTURE_KEYS_ENV } from '../helpers/api.ts'
import { runApi, startApiProcess } from '../helpers/api-process.ts'
import { makeCertificate } from '../helpers/certificates.ts'
import { createTestDatabase } from '../helpers/database.ts'
import { startSmtp } from '../helpers/smtp.ts'

const folder = (t: import('ava').ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-health-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

const line = (stdout: string, name: string) =>
  stdout.split('\n').find((l) => l.includes(` ${name}:`)) ?? `(no ${name} line)`

test('a server on HTTPS with mail passes every check, and the test mail arrives', async (t) => {
  const dir = folder(t)
  const cert = makeCertificate(dir, 'server')
  const smtp = await startSmtp(t)
  const env = {
    ...FIXTURE_KEYS_ENV,
    DATABASE_URL: await createTestDatabase(t),
    KEYWARD_DATA_DIR: join(dir, 'data'),
    KEYWARD_PORT: '0',
    KEYWARD_TLS_CERT: cert.cert,
    KEYWARD_TLS_KEY: cert.key,
    KEYWARD_SMTP_URL: smtp.url,
  }
  const api = await startApiProcess(t, [], env)
  // The health check trusts the certificate as a client of the organisation would.
  const checkEnv = { ...env, KEYWARD_APP_URL: `${api.url}/`, NODE_EXTRA_CA_CERTS: cert.cert }
  const run = await runApi(['healthcheck', '--send-test-mail', 'admin@keyward.test'], checkEnv)
  t.is(run.code, 0, run.stdout + run.stderr)
  for (const name of [
    'ssl.certificateKey',
    'ssl.certificateValid',
    'ssl.certificateHost',
    'core.fullBaseUrlReachable',
    'gpg.gpgKeyFingerprint',
    'environment.clock',
    'database.migrations',
    'environment.diskSpace',
    'smtpSettings.testMail',
  ])
    t.regex(line(run.stdout, name), /^ok {3}/, name)
  t.regex(line(run.stdout, 'ssl.sslFullBaseUrl'), /^ok/)
  t.regex(line(run.stdout, 'gpg.gpgKeyFingerprint'), /([0-9A-F]{4} ){9}[0-9A-F]{4}/)
  t.regex(line(run.stdout, 'environment.diskSpace'), /\d+ MiB free for the data folder/)
  t.is(smtp.received.length, 1)
  t.deepEqual(smtp.received[0].to, ['admin@keyward.test'])
  t.regex(smtp.received[0].text, /Mail delivery works/)
})

test("pending migrations, a key that is not the certificate's, an unreachable address and a failing mail server fail", async (t) => {
  const dir = folder(t)
  const cert = makeCertificate(dir, 'server')
  const other = makeCertificate(dir, 'other')
  const env = {
    ...FIXTURE_KEYS_ENV,
    DATABASE_URL: await createTestDatabase(t),
    KEYWARD_DATA_DIR: join(dir, 'data'),
    KEYWARD_TLS_CERT: cert.cert,
    KEYWARD_TLS_KEY: other.key,
    KEYWARD_APP_URL: 'https://keyward.example.test/',
    // Nothing listens there.
    KEYWARD_SMTP_URL: 'smtp://127.0.0.1:1',
  }
  const run = await runApi(['healthcheck', '--send-test-mail', 'admin@keyward.test'], env)
  t.is(run.code, 1)
  t.regex(line(run.stdout, 'ssl.certificateKey'), /^FAIL/)
  t.regex(line(run.stdout, 'ssl.certificateHost'), /^FAIL .*covers keyward\.example\.test/)
  t.regex(line(run.stdout, 'core.fullBaseUrlReachable'), /^warn .*does not answer/)
  t.regex(
    line(run.stdout, 'database.migrations'),
    /^FAIL database\.migrations: \d+ migration\(s\) pending .*run `api migrate`/,
  )
  // Mail, on a migrated database (saved SMTP settings are looked up first).
  t.is((await runApi(['migrate'], env)).code, 0)
  const mail = await runApi(['healthcheck', '--send-test-mail', 'admin@keyward.test'], env)
  t.is(mail.code, 1)
  t.regex(line(mail.stdout, 'database.migrations'), /^ok/)
  t.regex(
    line(mail.stdout, 'smtpSettings.testMail'),
    /^FAIL smtpSettings\.testMail: the test mail to admin@keyward\.test failed: .*ECONNREFUSED/,
  )
})
