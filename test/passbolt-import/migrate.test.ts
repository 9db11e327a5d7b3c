// `api migrate-from-passbolt` against a real MariaDB holding a small passbolt 5.12
// organisation: after the move, users sign in by GPGAuth against passbolt's own server key and
// read their own passwords, and nothing that breaks Keyward's rules is imported.
import { randomUUID } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import test, { type ExecutionContext } from 'ava'
import * as openpgp from 'openpgp'
import { formatReport, migrateFromPassbolt } from '../../plugins/passbolt-import/index.ts'
import { runApi } from '../helpers/api-process.ts'
import { TestClient } from '../helpers/client.ts'
import { createTestDatabase, query } from '../helpers/database.ts'
import { createPassboltDatabase, type MariaDb, SINCE_4_10 } from './fixture.ts'
import {
  buildOrganisation,
  CREATED,
  MODIFIED,
  migratedTarget,
  passboltServerKey,
  stamps,
  startMigratedApi,
  tempDir,
  V4_TYPE,
} from './organisation.ts'

test('a migrated organisation: users sign in with the old server key and read their own passwords', async (t) => {
  const org = await buildOrganisation(t)
  const target = await migratedTarget(t)
  const report = await migrateFromPassbolt({
    from: org.db.url,
    gpgDir: org.gpgDir,
    orm: target.orm,
    serverKey: target.serverKey,
  })
  t.is(report.schema.release, '5.12.0')
  t.is(report.counts.users.source, 4)
  t.is(report.counts.users.target, 4, 'deleted and disabled users move too')
  t.is(report.counts.secrets.source, 8)
  t.is(report.counts.secrets.target, 6)
  t.is(report.counts.permissions.target, 7, 'the permission of the deleted user stays behind')
  t.is(report.counts.folders_relations.target, 7)
  t.is(report.counts.metadata_keys.target, 1)
  t.is(report.counts.metadata_private_keys.target, 2, 'the deleted user’s copy stays behind')
  t.is(report.counts.metadata_session_keys.target, 1)
  t.is(report.counts.favorites.target, 1)
  const reasons = new Map(report.skipped.map((row) => [row.id, row.reason]))
  t.regex(reasons.get(org.ids.stray) ?? '', /has no access/)
  t.regex(reasons.get(org.ids.revision) ?? '', /revision/)
  t.is(report.skipped.filter((row) => row.table === 'permissions').length, 1)
  t.is(report.skipped.filter((row) => row.table === 'metadata_private_keys').length, 1)
  t.regex(formatReport(report), /secrets\s+8\s+6/)
  t.deepEqual(report.warnings, [], 'every reader holds their secret')

  const sql = (text: string, values: unknown[] = []) => query(target.url, text, values)
  const [resourceRow] = await sql(
    'select created, modified, created_by from resources where id = $1',
    [org.ids.shared],
  )
  t.is(new Date(resourceRow.created).toISOString(), CREATED.toISOString())
  t.is(new Date(resourceRow.modified).toISOString(), MODIFIED.toISOString())
  t.is(resourceRow.created_by, org.people.ada.id)
  const [carol] = await sql('select disabled, deleted from users where id = $1', [
    org.people.carol.id,
  ])
  t.is(new Date(carol.disabled).toISOString(), MODIFIED.toISOString())
  const [dave] = await sql('select deleted from users where id = $1', [org.people.dave.id])
  t.true(dave.deleted)
  const [adaRole] = await sql(
    'select r.name from users u join roles r on r.id = u.role_id where u.id = $1',
    [org.people.ada.id],
  )
  t.is(adaRole.name, 'admin')
  const customRoles = await sql('select id, name from roles where name = $1', ['auditor'])
  t.deepEqual(
    customRoles,
    [{ id: org.roles.auditor, name: 'auditor' }],
    'a custom role keeps its id',
  )

  const { api, signIn } = await startMigratedApi(t, target)
  const verify = await new TestClient(api.url).fetch('/auth/verify.json')
  t.is(verify.json.body.fingerprint, org.serverFingerprint, 'the server presents passbolt’s key')

  const bob = await signIn(org.people.bob)
  const bobs = await bob.fetch('/resources.json')
  t.is(bobs.status, 200)
  t.deepEqual(
    bobs.json.body.map((r: { id: string }) => r.id).sort(),
    [org.ids.shared, org.ids.bobsOwn, org.ids.sharedV5].sort(),
  )
  const secret = await bob.fetch(`/secrets/resource/${org.ids.shared}.json`)
  t.is(secret.status, 200)
  const { data } = await openpgp.decrypt({
    message: await openpgp.readMessage({ armoredMessage: secret.json.body.data }),
    decryptionKeys: org.people.bob.key.privateKey,
  })
  t.is(JSON.parse(String(data)).password, 'shared-wifi-secret')
  const metadataKeys = await bob.fetch('/metadata/keys.json?contain[metadata_private_keys]=1')
  t.is(metadataKeys.status, 200)
  t.deepEqual(
    metadataKeys.json.body.map((key: { id: string; metadata_private_keys: { id: string }[] }) => [
      key.id,
      key.metadata_private_keys.map((copy) => copy.id),
    ]),
    [[org.ids.metadataKeyId, [org.ids.bobsMetadataCopy]]],
  )

  const ada = await signIn(org.people.ada)
  const adas = await ada.fetch('/resources.json')
  t.deepEqual(
    adas.json.body.map((r: { id: string }) => r.id).sort(),
    [org.ids.shared, org.ids.adasOwn, org.ids.sharedV5].sort(),
  )
  const folders = await ada.fetch('/folders.json')
  t.deepEqual(
    folders.json.body.map((f: { id: string }) => f.id),
    [org.ids.folder],
  )
  const inFolder = await ada.fetch(`/resources.json?filter[has-parent]=${org.ids.folder}`)
  t.deepEqual(
    inFolder.json.body.map((r: { id: string }) => r.id),
    [org.ids.shared],
  )

  const again = await t.throwsAsync(
    migrateFromPassbolt({
      from: org.db.url,
      gpgDir: org.gpgDir,
      orm: target.orm,
      serverKey: target.serverKey,
    }),
  )
  t.regex(again.message, /not empty: users \(4\)/)
})

test('a dry run reports counts and skipped rows, and writes nothing', async (t) => {
  const org = await buildOrganisation(t)
  const target = await migratedTarget(t)
  const report = await migrateFromPassbolt({
    from: org.db.url,
    gpgDir: org.gpgDir,
    orm: target.orm,
    serverKey: target.serverKey,
    dryRun: true,
  })
  t.true(report.dryRun)
  t.is(report.counts.resources.planned, 4)
  t.is(report.counts.secrets.planned, 6)
  t.is(report.skipped.length, 4)
  t.regex(formatReport(report), /would be skipped/)
  const [row] = await query(target.url, 'select count(*)::int as n from users')
  t.is(row.n, 0)
  t.false(existsSync(target.serverKey.privatePath))
})

const schemaRefused = async (
  t: ExecutionContext,
  migration: { version: string; name: string },
  expected: RegExp,
) => {
  const db: MariaDb = await createPassboltDatabase(t, migration)
  const target = await migratedTarget(t)
  const org = await buildKeyOnly(t)
  const error = await t.throwsAsync(
    migrateFromPassbolt({
      from: db.url,
      gpgDir: org,
      orm: target.orm,
      serverKey: target.serverKey,
    }),
  )
  t.regex(error.message, expected)
}

const buildKeyOnly = async (t: ExecutionContext) => (await passboltServerKey(t)).gpgDir

test('a schema newer than the command knows is refused, naming the version found', async (t) => {
  await schemaRefused(
    t,
    { version: '20270101000000', name: 'V5200SomethingNew' },
    /20270101000000 V5200SomethingNew \(passbolt 5\.20\.0\).*newer/,
  )
})

test('a passbolt older than 4.0 is refused, naming the version found', async (t) => {
  // Only the 3.x migration is recorded: replace the fixture's phinxlog with an older one.
  const db = await createPassboltDatabase(t)
  await db.run('DELETE FROM phinxlog')
  await db.run('INSERT INTO phinxlog (version, migration_name) VALUES (?, ?)', [
    '20230308124720',
    'V3120DropActionLogsDuplicateIndexes',
  ])
  const target = await migratedTarget(t)
  const error = await t.throwsAsync(
    migrateFromPassbolt({
      from: db.url,
      gpgDir: await buildKeyOnly(t),
      orm: target.orm,
      serverKey: target.serverKey,
    }),
  )
  t.regex(error.message, /passbolt 3\.12\.0.*upgrade passbolt to 4\.0/)
})

test('a passbolt 4.x database, before encrypted metadata, is read without the metadata tables', async (t) => {
  const org = await buildOrganisation(t)
  for (const table of SINCE_4_10) await org.db.run(`DROP TABLE \`${table}\``)
  await org.db.run('DELETE FROM phinxlog WHERE version > ?', ['20231211195437'])
  await org.db.run('INSERT INTO phinxlog (version, migration_name) VALUES (?, ?)', [
    '20231211195437',
    'V450AddExpiredDateFieldToResources',
  ])
  const target = await migratedTarget(t)
  const report = await migrateFromPassbolt({
    from: org.db.url,
    gpgDir: org.gpgDir,
    orm: target.orm,
    serverKey: target.serverKey,
    dryRun: true,
  })
  t.is(report.schema.release, '4.5.0')
  t.is(report.counts.metadata_keys.source, 0)
  const missingKey = report.skipped.find((row) => row.id === org.ids.sharedV5)
  t.regex(missingKey?.reason ?? '', /metadata key .* does not exist/)
})

test('the api command: a dry run, the move, then a second run refused', async (t) => {
  const org = await buildOrganisation(t)
  const dataDir = tempDir(t)
  const env = { DATABASE_URL: await createTestDatabase(t), KEYWARD_DATA_DIR: dataDir }
  const args = ['migrate-from-passbolt', '--from', org.db.url, '--gpg-dir', org.gpgDir]
  const dry = await runApi([...args, '--dry-run'], env)
  t.is(dry.code, 0, dry.stderr)
  t.regex(dry.stdout, /dry run: would import from passbolt 5\.12\.0/)
  t.regex(dry.stdout, /secrets\s+8\s+6/)
  t.false(existsSync(join(dataDir, 'gpg', 'serverkey.asc')))
  const [schema] = await query(
    env.DATABASE_URL,
    "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
  )
  t.is(schema.n, 0, 'the dry run left the new database without a single table')
  t.regex(dry.stderr, /^read secrets: 8 rows \(\d+\.\d s, \d+\.\d s in all\)$/m)
  const run = await runApi(args, env)
  t.is(run.code, 0, run.stderr)
  t.regex(run.stderr, /^wrote secrets: 6 rows \(\d+\.\d s, \d+\.\d s in all\)$/m)
  t.regex(run.stdout, /users\s+4\s+4/)
  t.regex(run.stdout, /4 row\(s\) were skipped/)
  t.is(
    readFileSync(join(dataDir, 'gpg', 'serverkey_private.asc'), 'utf8'),
    readFileSync(join(org.gpgDir, 'serverkey_private.asc'), 'utf8'),
  )
  t.false(run.stdout.includes('PRIVATE KEY'), 'no key material in the report')
  const again = await runApi(args, env)
  t.is(again.code, 1)
  t.regex(again.stderr, /the Keyward database is not empty/)
})

test('rows PostgreSQL cannot store are left behind with what depends on them, not failing the move', async (t) => {
  const org = await buildOrganisation(t)
  const broken = randomUUID()
  await org.db.insert('resources', {
    id: broken,
    name: 'bad\u0000name',
    resource_type_id: V4_TYPE,
    ...stamps,
    created_by: org.people.ada.id,
    modified_by: '',
  })
  await org.db.insert('permissions', {
    id: randomUUID(),
    aco: 'Resource',
    aco_foreign_key: broken,
    aro: 'User',
    aro_foreign_key: org.people.ada.id,
    type: 15,
    ...stamps,
  })
  await org.db.insert('favorites', {
    id: 'not-a-uuid',
    user_id: org.people.ada.id,
    foreign_key: org.ids.shared,
    foreign_model: 'Resource',
    ...stamps,
  })
  // A second live key with Ada's fingerprint, which Keyward's sign-in could not tell apart.
  const [[adaKey]] = (await org.db.run('SELECT * FROM gpgkeys WHERE user_id = ?', [
    org.people.ada.id,
  ])) as [Record<string, unknown>[]]
  const twin = randomUUID()
  await org.db.insert('gpgkeys', {
    ...adaKey,
    id: twin,
    user_id: org.people.carol.id,
    created: MODIFIED,
  })
  const target = await migratedTarget(t)
  const report = await migrateFromPassbolt({
    from: org.db.url,
    gpgDir: org.gpgDir,
    orm: target.orm,
    serverKey: target.serverKey,
  })
  const reasons = new Map(report.skipped.map((row) => [row.id, row.reason]))
  t.regex(reasons.get(twin) ?? '', /already another live key/)
  t.is(reasons.get(broken), 'name holds a NUL character')
  t.is(reasons.get('not-a-uuid'), 'id is not a UUID')
  t.is(report.counts.resources.target, 4, 'the others are all there')
  t.is(report.counts.permissions.target, 7, 'the broken item’s permission stays behind with it')
  t.is(report.counts.favorites.target, 1)
})

test('a reader left without a secret by passbolt is imported and reported for a new share', async (t) => {
  const org = await buildOrganisation(t)
  await org.db.run('DELETE FROM secrets WHERE user_id = ? AND resource_id = ?', [
    org.people.bob.id,
    org.ids.shared,
  ])
  const target = await migratedTarget(t)
  const report = await migrateFromPassbolt({
    from: org.db.url,
    gpgDir: org.gpgDir,
    orm: target.orm,
    serverKey: target.serverKey,
    dryRun: true,
  })
  t.deepEqual(report.warnings, [
    `user ${org.people.bob.id} can read resource ${org.ids.shared} but has no secret for it: share it with them again`,
  ])
  t.regex(formatReport(report), /warning: user .* has no secret/)
})
