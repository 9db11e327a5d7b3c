// `api backup` and `api restore` through the CLI: a populated server backed up while it keeps
// taking writes, restored into a new empty database and data folder, where every user signs in
// against the same server key and decrypts every secret they hold; damaged, altered, newer and
// encrypted archives, and non-empty targets.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test, { type ExecutionContext } from 'ava'
import * as openpgp from 'openpgp'
import { create as createTar, extract as extractTar } from 'tar'
import { JWT_KEY, SERVER_KEY, startTestApi, type TestApi } from '../helpers/api.ts'
import { runApi } from '../helpers/api-process.ts'
import { gpgAuthLogin, TestClient } from '../helpers/client.ts'
import { createTestDatabase, query } from '../helpers/database.ts'
import {
  createPassword,
  decryptAs,
  type Member,
  secretInvariantViolations,
  team,
} from '../helpers/vault.ts'

const folder = (t: ExecutionContext, name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `keyward-${name}-`))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A data folder holding the fixture key pairs where the server looks by default. */
const dataFolderWithKeys = (t: ExecutionContext) => {
  const dir = folder(t, 'data')
  mkdirSync(join(dir, 'gpg'), { recursive: true })
  mkdirSync(join(dir, 'jwt'), { recursive: true })
  copyFileSync(SERVER_KEY.privatePath, join(dir, 'gpg', 'serverkey_private.asc'))
  copyFileSync(SERVER_KEY.publicPath, join(dir, 'gpg', 'serverkey.asc'))
  copyFileSync(JWT_KEY.privatePath, join(dir, 'jwt', 'jwt.key'))
  copyFileSync(JWT_KEY.publicPath, join(dir, 'jwt', 'jwt.pem'))
  return dir
}

/** The environment of a server that keeps its keys in its data folder. */
const envOf = (databaseUrl: string, dataDir: string) => ({
  DATABASE_URL: databaseUrl,
  KEYWARD_DATA_DIR: dataDir,
  KEYWARD_SERVER_KEY_PRIVATE: '',
  KEYWARD_SERVER_KEY_PUBLIC: '',
  KEYWARD_JWT_PRIVATE_KEY: '',
  KEYWARD_JWT_PUBLIC_KEY: '',
})

interface Populated {
  api: TestApi
  env: Record<string, string>
  members: Member[]
  /** Every password created before the backup started: resource id, owner, plaintext. */
  passwords: { id: string; owner: Member; password: string }[]
}

const populate = async (t: ExecutionContext): Promise<Populated> => {
  const dataDir = dataFolderWithKeys(t)
  const env = envOf(await createTestDatabase(t), dataDir)
  const api = await startTestApi(t, { databaseUrl: env.DATABASE_URL, env })
  const members = await team(api, ['ada', 'bob', 'cyd'], 'ada')
  const passwords: Populated['passwords'] = []
  for (const owner of members)
    for (let i = 0; i < 3; i++) {
      const name = `${owner.username.split('@')[0]}-${i}`
      const password = `secret of ${name} ✓`
      const body = await createPassword(owner, name, password)
      passwords.push({ id: body.id, owner, password })
    }
  return { api, env, members, passwords }
}

test.serial(
  'a backup taken under write load restores into an empty target: same server key, every user signs in and reads every secret',
  async (t) => {
    const source = await populate(t)
    const out = folder(t, 'backup')
    const archive = join(out, 'keyward.tar.gz')

    // Writes keep landing while the backup runs.
    let writing = true
    let written = 0
    const load = (async () => {
      while (writing) {
        await createPassword(source.members[1], `load-${written}`, `load ${written}`)
        written++
      }
    })()
    const backup = await runApi(['backup', '--output', archive], source.env)
    writing = false
    await load
    t.is(backup.code, 0, backup.stderr)
    t.regex(backup.stdout, /wrote .*keyward\.tar\.gz .*tables, \d+ rows/)
    t.true(written > 0, 'writes landed while the backup ran')

    // Wipe: a new empty database and a new empty data folder.
    const target = envOf(await createTestDatabase(t), folder(t, 'restored'))
    const restore = await runApi(['restore', archive], target)
    t.is(restore.code, 0, restore.stderr)
    t.regex(restore.stdout, /every checksum verified/)
    t.regex(restore.stdout, /restored \d+ rows/)
    const restoredConfig = JSON.parse(
      readFileSync(join(target.KEYWARD_DATA_DIR, 'restored.keyward.config.json'), 'utf8'),
    )
    t.is(restoredConfig.databaseUrl, source.env.DATABASE_URL)

    const restored = await startTestApi(t, { databaseUrl: target.DATABASE_URL, env: target })
    t.is(restored.app.serverKey.fingerprint, source.api.app.serverKey.fingerprint)
    t.deepEqual(await secretInvariantViolations(restored), [])

    // The load's resources: all or some, but each one whole (its secret came with it).
    const loadRows = await query(
      target.DATABASE_URL,
      "select r.id from resources r join secrets s on s.resource_id = r.id where r.name like 'load-%'",
    )
    t.true(loadRows.length <= written)

    for (const member of source.members) {
      const client = new TestClient(restored.url)
      const login = await gpgAuthLogin(client, member)
      t.is(login.stage2.status, 200, `${member.username} signs in`)
      t.is(login.stage0.headers.get('x-gpgauth-verify-response'), login.sent)
      const list = await client.fetch('/resources.json?contain[secret]=1')
      t.is(list.status, 200)
      const mine = source.passwords.filter((p) => p.owner.id === member.id)
      for (const { id, password } of mine) {
        const resource = list.json.body.find((r: { id: string }) => r.id === id)
        t.truthy(resource, `${member.username} still has ${id}`)
        const secret = JSON.parse(await decryptAs(resource.secrets[0].data, member))
        t.is(secret.password, password)
      }
      // Every secret the user holds decrypts, the load's included.
      for (const resource of list.json.body)
        t.truthy(await decryptAs(resource.secrets[0].data, member))
    }

    // The same archive again into the now populated target: refused, nothing touched.
    const again = await runApi(['restore', archive], {
      ...target,
      KEYWARD_DATA_DIR: folder(t, 'other'),
    })
    t.is(again.code, 1)
    t.regex(again.stderr, /the target database is not empty/)
    const keysThere = await runApi(['restore', archive], {
      ...target,
      DATABASE_URL: await createTestDatabase(t),
    })
    t.is(keysThere.code, 1)
    t.regex(keysThere.stderr, /already exists: restore needs an empty data folder/)
  },
)

/** Unpacks an archive, lets `change` edit the files, packs it again. */
const repack = async (t: ExecutionContext, archive: string, change: (dir: string) => void) => {
  const dir = folder(t, 'repack')
  await extractTar({ file: archive, cwd: dir })
  change(dir)
  const names = [
    'manifest.json',
    ...Object.keys(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).files),
  ]
  const file = join(folder(t, 'repacked'), 'altered.tar.gz')
  await createTar({ gzip: true, cwd: dir, file, portable: true }, names)
  return file
}

test.serial('damaged, altered, newer and encrypted archives', async (t) => {
  const source = await populate(t)
  const out = folder(t, 'backup')
  const archive = join(out, 'keyward.tar.gz')
  t.is((await runApi(['backup', '-o', archive], source.env)).code, 0)
  const target = envOf(await createTestDatabase(t), folder(t, 'restored'))
  const bytes = readFileSync(archive)

  const truncated = join(out, 'truncated.tar.gz')
  writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)))
  const cut = await runApi(['restore', truncated], target)
  t.is(cut.code, 1)
  t.regex(cut.stderr, /truncated\.tar\.gz is truncated or damaged/)

  const altered = await repack(t, archive, (dir) => {
    const file = join(dir, 'database', 'users.copy')
    writeFileSync(file, readFileSync(file, 'utf8').replace('ada@keyward.test', 'eve@keyward.test'))
  })
  const changed = await runApi(['restore', altered], target)
  t.is(changed.code, 1)
  t.regex(changed.stderr, /checksum mismatch in database\/users\.copy/)

  const newer = await repack(t, archive, (dir) => {
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, format: 2 }))
  })
  const future = await runApi(['restore', newer], target)
  t.is(future.code, 1)
  t.regex(future.stderr, /backup format 2 by a newer Keyward/)

  const unknownMigration = await repack(t, archive, (dir) => {
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))
    manifest.migrations.push('Migration29991231000000Future')
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest))
  })
  const ahead = await runApi(['restore', unknownMigration], target)
  t.is(ahead.code, 1)
  t.regex(
    ahead.stderr,
    /migrated by a newer Keyward \(Migration29991231000000Future unknown here\)/,
  )

  // Nothing of the refused attempts reached the target.
  t.deepEqual(
    await query(
      target.DATABASE_URL,
      "select table_name from information_schema.tables where table_schema = 'public' and table_name <> 'mikro_orm_migrations'",
    ),
    [],
  )

  // Encrypted to an administrator's key: unreadable without it, whole with it.
  const keys = folder(t, 'keys')
  const { privateKey, publicKey } = await openpgp.generateKey({
    type: 'ecc',
    curve: 'curve25519Legacy',
    userIDs: [{ email: 'backup@keyward.test' }],
    passphrase: 'backup passphrase',
    format: 'armored',
  })
  writeFileSync(join(keys, 'backup.asc'), publicKey)
  writeFileSync(join(keys, 'backup-private.asc'), privateKey)
  const sealed = join(out, 'keyward.tar.gz.gpg')
  const enc = await runApi(
    ['backup', '-o', sealed, '--encrypt-to', join(keys, 'backup.asc')],
    source.env,
  )
  t.is(enc.code, 0, enc.stderr)
  t.regex(enc.stdout, /encrypted/)
  t.false(readFileSync(sealed).includes(Buffer.from('ada@keyward.test')))
  const locked = await runApi(['restore', sealed], target)
  t.is(locked.code, 1)
  t.regex(locked.stderr, /is encrypted: name the private key that opens it with --decrypt-with/)
  const noPassphrase = await runApi(
    ['restore', sealed, '--decrypt-with', join(keys, 'backup-private.asc')],
    target,
  )
  t.is(noPassphrase.code, 1)
  t.regex(noPassphrase.stderr, /passphrase/)
  const opened = await runApi(
    ['restore', sealed, '--decrypt-with', join(keys, 'backup-private.asc')],
    {
      ...target,
      KEYWARD_BACKUP_PASSPHRASE: 'backup passphrase',
    },
  )
  t.is(opened.code, 0, opened.stderr)
  const users = await query(target.DATABASE_URL, 'select username from users order by username')
  t.deepEqual(
    users.map((row) => row.username),
    ['ada@keyward.test', 'bob@keyward.test', 'cyd@keyward.test'],
  )
})
