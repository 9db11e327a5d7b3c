// The installed server and CLIs run from a read-only tree (a system package under
// ProtectSystem=strict, a container image): `api healthcheck` and `docs build` with the
// repository mounted read-only in a private mount namespace, their bundles and build cache in
// the user's cache folder; and with no writable cache anywhere, the API CLI still runs.
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test, { type ExecutionContext } from 'ava'
import { allMigrations, createOrm, migrate } from '../../api/orm.ts'
import { plugins } from '../../plugins/index.ts'
import { FIXTURE_KEYS_ENV } from '../helpers/api.ts'
import { createTestDatabase } from '../helpers/database.ts'

const repo = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '')

const folder = (t: ExecutionContext, name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `keyward-ro-${name}-`))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`

/**
 * Runs `command` with the repository (and its packages, wherever they really are) read-only,
 * in a mount namespace of its own: nothing outside the process sees the change.
 */
const readOnly = (
  command: string[],
  env: Record<string, string>,
  extraReadOnly: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> => {
  const trees = [repo, realpathSync(join(repo, 'node_modules')), ...extraReadOnly]
  const mounts = [...new Set(trees)]
    .map(
      (dir) => `mount --bind ${quote(dir)} ${quote(dir)} && mount -o remount,bind,ro ${quote(dir)}`,
    )
    .join(' && ')
  const script = `${mounts} && if touch ${quote(`${repo}/.write-probe`)} 2>/dev/null; then echo 'the tree is writable' >&2; exit 97; fi && cd ${quote(repo)} && exec ${command.map(quote).join(' ')}`
  return new Promise((resolve) => {
    execFile(
      'unshare',
      ['--mount', '--propagation', 'private', 'sh', '-c', script],
      {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
        timeout: 300_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          stdout,
          stderr,
        }),
    )
  })
}

const migratedDatabase = async (t: ExecutionContext) => {
  const url = await createTestDatabase(t)
  const orm = await createOrm({ url, entities: [], migrations: allMigrations(plugins) })
  await migrate(orm)
  await orm.close()
  return url
}

test.serial(
  'api healthcheck and docs build run from a read-only tree, caching under the home folder',
  async (t) => {
    const home = folder(t, 'home')
    const out = folder(t, 'out')
    const env = {
      ...FIXTURE_KEYS_ENV,
      HOME: home,
      TMPDIR: folder(t, 'tmp'),
      DATABASE_URL: await migratedDatabase(t),
      KEYWARD_DATA_DIR: join(folder(t, 'data'), 'data'),
    }
    const health = await readOnly([process.execPath, 'bin/api.js', 'healthcheck'], env)
    t.is(health.code, 0, health.stdout + health.stderr)
    t.regex(health.stdout, /all checks passed/)
    const cache = join(home, '.cache', 'keyward')
    const [tree] = readdirSync(cache)
    t.regex(tree, /^tree-[0-9a-f]{8}$/)
    t.is(realpathSync(join(cache, tree, 'node_modules')), realpathSync(join(repo, 'node_modules')))

    const docs = await readOnly(
      [process.execPath, 'bin/docs.js', 'build', '--out', join(out, 'site')],
      env,
    )
    t.is(docs.code, 0, docs.stdout + docs.stderr)
    t.regex(docs.stdout, /pages written to/)
    t.true(existsSync(join(out, 'site', 'docs', 'index.html')))
    const kept = readdirSync(join(cache, tree))
    t.true(
      kept.some((name) => name.startsWith('docs-cli-')),
      kept.join(', '),
    )
    t.true(
      kept.some((name) => name.startsWith('docs-build-')),
      kept.join(', '),
    )
    t.false(existsSync(join(repo, '.write-probe')))
  },
)

test.serial(
  'with no writable cache folder at all, the API CLI runs from the sources',
  async (t) => {
    const home = folder(t, 'home')
    const tmp = folder(t, 'tmp')
    mkdirSync(join(home, '.cache'))
    const env = {
      ...FIXTURE_KEYS_ENV,
      HOME: home,
      TMPDIR: tmp,
      DATABASE_URL: await migratedDatabase(t),
      KEYWARD_DATA_DIR: join(folder(t, 'data'), 'data'),
    }
    const health = await readOnly([process.execPath, 'bin/api.js', 'healthcheck'], env, [home, tmp])
    // It ran every check; the one failure is the read-only temporary folder this test made.
    t.regex(health.stdout, /ok {3}database\.migrations: every migration applied/)
    t.deepEqual(
      health.stdout.split('\n').filter((line) => line.startsWith('FAIL')),
      [`FAIL environment.tmpWritable: temporary folder ${tmp} is writable`],
      health.stderr,
    )
    t.deepEqual(readdirSync(join(home, '.cache')), [])
  },
)
