// Server configuration: environment, optional file, flags; one line per bad value.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'ava'
import { ConfigError, loadConfig } from '../../api/config.ts'

test('defaults: 127.0.0.1:8080, embedded database, app url from host and port', (t) => {
  const config = loadConfig({ env: {}, cwd: '/srv/keyward' })
  t.is(config.host, '127.0.0.1')
  t.is(config.port, 8080)
  t.is(config.appUrl, 'http://127.0.0.1:8080/')
  t.is(config.databaseUrl, undefined)
  t.is(config.dataDir, '/srv/keyward/.data')
  t.is(config.bodyLimit, 5 * 1024 * 1024)
})

test('environment, then flags, win over the config file', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-config-'))
  writeFileSync(
    join(dir, 'keyward.config.json'),
    JSON.stringify({ port: 9000, host: '0.0.0.0', locale: 'fr-FR' }),
  )
  const config = loadConfig({
    env: { KEYWARD_PORT: '9100', KEYWARD_BODY_LIMIT: '512kb' },
    overrides: { host: '127.0.0.2' },
    cwd: dir,
  })
  t.is(config.port, 9100)
  t.is(config.host, '127.0.0.2')
  t.is(config.locale, 'fr-FR')
  t.is(config.bodyLimit, 512 * 1024)
})

test('each bad value is one line naming the variable or the file field', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-config-'))
  writeFileSync(
    join(dir, 'keyward.config.json'),
    JSON.stringify({ logLevel: 'loud', colour: 'blue' }),
  )
  const error = t.throws(
    () =>
      loadConfig({
        env: { KEYWARD_PORT: '70000', DATABASE_URL: 'mysql://x', KEYWARD_APP_URL: 'nope' },
        cwd: dir,
      }),
    { instanceOf: ConfigError },
  )
  const file = join(dir, 'keyward.config.json')
  t.deepEqual(
    error?.message.split('\n').sort(),
    [
      `${file}: logLevel: Invalid option: expected one of "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent"`,
      `${file}: unknown field(s) colour`,
      'DATABASE_URL: a postgres:// URL',
      'KEYWARD_APP_URL: Invalid URL',
      'KEYWARD_PORT: Too big: expected number to be <=65535',
    ].sort(),
  )
})

test('a config file that is not JSON, or a missing KEYWARD_CONFIG file, is one clear line', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-config-'))
  writeFileSync(join(dir, 'keyward.config.json'), '{ port: ')
  t.throws(() => loadConfig({ env: {}, cwd: dir }), {
    message: new RegExp(`^${join(dir, 'keyward.config.json')}: `),
  })
  t.throws(() => loadConfig({ env: { KEYWARD_CONFIG: 'missing.json' }, cwd: dir }), {
    message: `KEYWARD_CONFIG: ${join(dir, 'missing.json')} does not exist`,
  })
})
