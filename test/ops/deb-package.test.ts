// `npm run package:deb`: the package's fields, layout, modes, unit and maintainer scripts; then,
// installed into a throwaway root, its `keyward-api` migrates, passes the health check and
// serves against the PostgreSQL service.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'ava'
import { buildDeb } from '../../packaging/deb/build-deb.ts'
import { FIXTURE_KEYS_ENV } from '../helpers/api.ts'
import { runApi, startApiProcess } from '../helpers/api-process.ts'
import { createTestDatabase } from '../helpers/database.ts'

const { version } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string }

test('the Debian package installs a hardened service whose keyward-api migrates, checks and serves', async (t) => {
  t.timeout(900_000)
  const dir = mkdtempSync(join(tmpdir(), 'keyward-deb-test-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const built = buildDeb({ outDir: join(dir, 'dist'), compression: 'none' })
  t.is(built.file, join(dir, 'dist', `keyward_${version}_amd64.deb`))

  const field = (name: string) =>
    execFileSync('dpkg-deb', ['--field', built.file, name], { encoding: 'utf8' }).trim()
  t.is(field('Package'), 'keyward')
  t.is(field('Version'), version)
  t.regex(field('Depends'), /(^|, )nodejs \(>= 20\)/)
  t.regex(field('Depends'), /adduser/)
  t.is(field('Recommends'), 'postgresql')

  const listing = execFileSync('dpkg-deb', ['--contents', built.file], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  })
  const entry = (path: string) =>
    listing.split('\n').find((line) => line.endsWith(` .${path}`) || line.includes(` .${path} -> `))
  t.regex(entry('/usr/bin/keyward-api') ?? '', /^-rwxr-xr-x root\/root/)
  t.regex(entry('/etc/keyward/keyward.config.json') ?? '', /^-rw-r----- root\/root/)
  t.regex(entry('/lib/systemd/system/keyward.service') ?? '', /^-rw-r--r--/)
  t.truthy(entry('/usr/lib/keyward/bin/api.js'))
  t.truthy(entry('/usr/lib/keyward/api/server.ts'))
  t.truthy(entry('/usr/lib/keyward/node_modules/koa/package.json'))
  // Development packages and run-time caches stay out.
  for (const absent of ['ava', '@biomejs/biome', 'playwright-core', 'autocannon', '.cache'])
    t.falsy(
      entry(`/usr/lib/keyward/node_modules/${absent}/package.json`) ??
        entry(`/usr/lib/keyward/node_modules/${absent}`),
      absent,
    )
  t.false(listing.includes('./usr/lib/keyward/test/'))

  const control = join(dir, 'control')
  execFileSync('dpkg-deb', ['--control', built.file, control])
  t.is(readFileSync(join(control, 'conffiles'), 'utf8'), '/etc/keyward/keyward.config.json\n')
  for (const script of ['postinst', 'prerm', 'postrm'])
    t.is(spawnSync('sh', ['-n', join(control, script)]).status, 0, `${script} parses`)
  t.regex(readFileSync(join(control, 'postinst'), 'utf8'), /adduser --system --group/)
  t.regex(readFileSync(join(control, 'postinst'), 'utf8'), /keyward-api migrate/)
  t.notRegex(readFileSync(join(control, 'postrm'), 'utf8'), /rm -rf \/var\/lib\/keyward/)

  // A throwaway root.
  const root = join(dir, 'root')
  execFileSync('dpkg-deb', ['-x', built.file, root])
  const unitFile = join(root, 'lib/systemd/system/keyward.service')
  const unit = readFileSync(unitFile, 'utf8')
  for (const line of [
    'User=keyward',
    'ProtectSystem=strict',
    'NoNewPrivileges=true',
    'PrivateTmp=true',
    'Restart=on-failure',
    'StateDirectory=keyward',
    'ExecStart=/usr/bin/node /usr/lib/keyward/bin/api.js start',
    'Environment=KEYWARD_CONFIG=/etc/keyward/keyward.config.json',
  ])
    t.true(unit.split('\n').includes(line), line)
  const analyze = spawnSync('systemd-analyze', ['verify', unitFile], { encoding: 'utf8' })
  if (analyze.error)
    t.log('systemd-analyze is not installed: the unit was checked line by line only')
  else
    t.is(
      `${analyze.stdout}${analyze.stderr}`.trim(),
      '',
      'systemd-analyze verify has nothing to say',
    )
  t.deepEqual(JSON.parse(readFileSync(join(root, 'etc/keyward/keyward.config.json'), 'utf8')), {
    host: '127.0.0.1',
    port: 8080,
    dataDir: '/var/lib/keyward',
  })

  const keywardApi = join(root, 'usr/bin/keyward-api')
  const env = {
    ...FIXTURE_KEYS_ENV,
    KEYWARD_CONFIG: join(root, 'etc/keyward/keyward.config.json'),
    KEYWARD_DATA_DIR: join(dir, 'var-lib-keyward'),
    DATABASE_URL: await createTestDatabase(t),
  }
  const migrate = await runApi(['migrate'], env, { command: keywardApi })
  t.is(migrate.code, 0, migrate.stderr)
  t.regex(migrate.stdout, /^applied: Migration/)
  const health = await runApi(['healthcheck'], env, { command: keywardApi })
  t.is(health.code, 0, health.stdout + health.stderr)
  t.regex(health.stdout, /all checks passed/)

  const api = await startApiProcess(t, [], { ...env, KEYWARD_PORT: '0' }, { command: keywardApi })
  const status = await fetch(`${api.url}/healthcheck/status.json`)
  t.is(status.status, 200)
  t.is((await status.json()).body, 'OK')
  t.is(await api.stop(), 0)
})
