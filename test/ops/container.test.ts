// The Dockerfile and compose.yaml. No container engine runs here, so the recipe is checked the
// honest way it can be: its build steps run on a clean copy of the repository (the real
// `npm ci --omit=dev` included), and the image's command starts the server from the result,
// with the installed tree read-only and data on the volume folder; its HEALTHCHECK then passes.
import { execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { parse } from 'yaml'
import { createTestDatabase } from '../helpers/database.ts'
import { buildDockerfile, mappedCommand, mappedEnv } from '../helpers/dockerfile.ts'
import { freePort } from '../helpers/extension.ts'

const repo = fileURLToPath(new URL('../../', import.meta.url))

/** The repository as `docker build` receives it: tracked and new files, less .dockerignore. */
const cleanCopy = (to: string) => {
  const ignored = readFileSync(join(repo, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
    cwd: repo,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean)
    .filter((file) => existsSync(join(repo, file)))
    .filter(
      (file) =>
        !ignored.some((pattern) =>
          pattern.startsWith('*')
            ? file.endsWith(pattern.slice(1))
            : file === pattern || file.startsWith(`${pattern}/`),
        ),
    )
  for (const file of files) {
    mkdirSync(dirname(join(to, file)), { recursive: true })
    cpSync(join(repo, file), join(to, file))
  }
  return files
}

test('the Dockerfile builds on a clean copy and its image command serves from a read-only tree', async (t) => {
  t.timeout(900_000)
  const dir = mkdtempSync(join(tmpdir(), 'keyward-image-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const context = join(dir, 'context')
  const files = cleanCopy(context)
  t.false(files.some((file) => file.startsWith('node_modules/') || file.startsWith('test/')))

  const stages = await buildDockerfile(join(context, 'Dockerfile'), {
    context,
    workspace: join(dir, 'stages'),
  })
  t.is(stages.length, 2, 'a build stage and the image')
  const image = stages[1]
  t.is(image.user, 'keyward', 'the image runs as a non-root user')
  t.deepEqual(image.volumes, ['/var/lib/keyward'])
  const installed = join(image.root, 'usr/lib/keyward')
  t.true(existsSync(join(installed, 'node_modules/koa/package.json')))
  t.false(
    existsSync(join(installed, 'node_modules/ava')),
    'npm ci --omit=dev left development packages out',
  )
  t.false(existsSync(join(installed, 'test')))

  const port = await freePort()
  const env = {
    ...process.env,
    ...mappedEnv(image),
    KEYWARD_HOST: '127.0.0.1',
    KEYWARD_PORT: String(port),
    DATABASE_URL: await createTestDatabase(t),
  }
  // As `read_only: true` in compose.yaml: the installed tree takes no writes.
  const command = mappedCommand(image, image.cmd ?? [])
  const script = `mount --bind '${installed}' '${installed}' && mount -o remount,bind,ro '${installed}' && exec "$@"`
  const child = spawn(
    'unshare',
    ['--mount', '--propagation', 'private', 'sh', '-c', script, 'sh', ...command],
    {
      env,
      cwd: join(image.root, image.workdir),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  child.stdout.on('data', (chunk) => {
    output += chunk
  })
  child.stderr.on('data', (chunk) => {
    output += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGTERM')
  })
  const deadline = Date.now() + 180_000
  while (!/listening on/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null)
      t.fail(`the image's command did not start:\n${output}`)
    if (Date.now() > deadline || child.exitCode !== null) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  t.regex(output, new RegExp(`listening on http://127\\.0\\.0\\.1:${port}/`))
  // The generated keys are on the volume.
  const volume = join(image.root, 'var/lib/keyward')
  t.true(existsSync(join(volume, 'gpg/serverkey_private.asc')))
  t.true(existsSync(join(volume, 'jwt/jwt.key')))

  const [probe, ...probeArgs] = image.healthcheck ?? []
  const health = execFileSync(probe === 'node' ? process.execPath : probe, probeArgs, {
    env,
    stdio: 'pipe',
  })
  t.is(health.length, 0)
  child.kill('SIGTERM')
  t.is(await exited, 0)
})

test('compose.yaml runs the image against PostgreSQL with data on a volume and a read-only root', (t) => {
  const compose = parse(readFileSync(join(repo, 'compose.yaml'), 'utf8'))
  const server = compose.services.keyward
  t.is(server.build, '.')
  t.regex(
    server.environment.DATABASE_URL,
    /^postgres:\/\/keyward:\$\{POSTGRES_PASSWORD\}@db:5432\/keyward$/,
  )
  t.deepEqual(server.depends_on, { db: { condition: 'service_healthy' } })
  t.true(server.volumes.includes('data:/var/lib/keyward'))
  t.true(server.read_only)
  t.true(server.tmpfs.some((mount: string) => mount.startsWith('/var/cache/keyward')))
  t.regex(compose.services.db.image, /^postgres:\d+/)
  t.regex(compose.services.db.environment.POSTGRES_PASSWORD, /:\?/, 'no default database password')
  t.deepEqual(Object.keys(compose.volumes), ['db', 'data'])
  t.regex(
    readFileSync(join(repo, 'Dockerfile'), 'utf8'),
    /ENV[\s\S]*KEYWARD_CACHE_DIR=\/var\/cache\/keyward/,
  )
})
