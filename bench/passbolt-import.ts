// Time and peak memory of `api migrate-from-passbolt` on a generated organisation: 500 users,
// 50 groups of 10, 50,000 passwords each owned by one user, one in ten also shared with a group
// (so 100,000 secrets), each user's tree at the root. The passbolt side is a MariaDB database
// with passbolt 5.12's tables; the run is a real `api` process, measured by /usr/bin/time.
// Usage: node bin/run.js bench/passbolt-import.ts [--passwords 50000]
import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import mysql from 'mysql2/promise'
import * as openpgp from 'openpgp'
import pg from 'pg'
import { PASSBOLT_5_12_SCHEMA } from '../test/passbolt-import/fixture.ts'

const { values } = parseArgs({ options: { passwords: { type: 'string', default: '50000' } } })
const PASSWORDS = Number(values.passwords)
const USERS = 500
const GROUPS = 50
const MYSQL = 'mysql://root@127.0.0.1:3306/'
const PG = 'postgres://postgres@127.0.0.1:5432/postgres'
const name = `bench_passbolt_${Date.now()}`
const dir = mkdtempSync(join(tmpdir(), 'keyward-bench-passbolt-'))

const admin = await mysql.createConnection({ uri: MYSQL })
await admin.query(`CREATE DATABASE \`${name}\``)
const db = await mysql.createConnection({ uri: `${MYSQL}${name}`, timezone: 'Z' })
const pgAdmin = new pg.Client({ connectionString: PG })
await pgAdmin.connect()
await pgAdmin.query(`create database ${name}`)
try {
  for (const statement of PASSBOLT_5_12_SCHEMA) await db.query(statement)
  await db.query('INSERT INTO phinxlog (version, migration_name) VALUES (?, ?)', [
    '20260504120000',
    'V5120AddPartialUniqueIndexOnScimEntries',
  ])
  console.log('seeding…')
  const key = await openpgp.generateKey({
    type: 'ecc',
    curve: 'curve25519Legacy',
    userIDs: [{ email: 'bench@example.com' }],
    format: 'object',
  })
  const secret = (await openpgp.encrypt({
    message: await openpgp.createMessage({ text: '{"password":"bench","description":""}' }),
    encryptionKeys: key.publicKey,
  })) as string
  const now = new Date()
  const bulk = async (table: string, rows: unknown[][], columns: string[]) => {
    for (let i = 0; i < rows.length; i += 2000)
      await db.query(`INSERT INTO \`${table}\` (${columns.join(', ')}) VALUES ?`, [
        rows.slice(i, i + 2000),
      ])
  }
  const roleId = randomUUID()
  await bulk(
    'roles',
    [[roleId, 'user', '', now, now]],
    ['id', 'name', 'description', 'created', 'modified'],
  )
  const typeId = 'a28a04cd-6f53-518a-967c-9963bf9cec51'
  await bulk(
    'resource_types',
    [[typeId, 'password-and-description', 'Password', '{}', now, now]],
    ['id', 'slug', 'name', 'definition', 'created', 'modified'],
  )
  const users = Array.from({ length: USERS }, () => randomUUID())
  await bulk(
    'users',
    users.map((id, i) => [id, roleId, `user${i}@example.com`, 1, now, now]),
    ['id', 'role_id', 'username', 'active', 'created', 'modified'],
  )
  await bulk(
    'profiles',
    users.map((id, i) => [randomUUID(), id, `User${i}`, 'Bench', now, now]),
    ['id', 'user_id', 'first_name', 'last_name', 'created', 'modified'],
  )
  // Keyward signs users in by fingerprint: each user needs a key of their own.
  const keys: unknown[][] = []
  for (const id of users) {
    const own = await openpgp.generateKey({
      type: 'ecc',
      curve: 'curve25519Legacy',
      userIDs: [{ email: `${id}@example.com` }],
      format: 'object',
    })
    const fingerprint = own.publicKey.getFingerprint().toUpperCase()
    keys.push([
      randomUUID(),
      id,
      own.publicKey.armor(),
      255,
      'bench',
      fingerprint.slice(-8),
      fingerprint,
      'EdDSA',
      now,
      now,
      now,
    ])
  }
  await bulk('gpgkeys', keys, [
    'id',
    'user_id',
    'armored_key',
    'bits',
    'uid',
    'key_id',
    'fingerprint',
    'type',
    'key_created',
    'created',
    'modified',
  ])
  const groups = Array.from({ length: GROUPS }, () => randomUUID())
  await bulk(
    'groups',
    groups.map((id, i) => [id, `Group ${i}`, now, now, users[0], users[0]]),
    ['id', 'name', 'created', 'modified', 'created_by', 'modified_by'],
  )
  const members = groups.map((_, g) => users.slice(g * 10, g * 10 + 10))
  await bulk(
    'groups_users',
    groups.flatMap((group, g) =>
      members[g].map((user, m) => [randomUUID(), group, user, m === 0 ? 1 : 0, now]),
    ),
    ['id', 'group_id', 'user_id', 'is_admin', 'created'],
  )
  const resources: unknown[][] = []
  const permissions: unknown[][] = []
  const secrets: unknown[][] = []
  const relations: unknown[][] = []
  for (let i = 0; i < PASSWORDS; i++) {
    const id = randomUUID()
    const g = i % GROUPS
    const owner = members[g][i % 10]
    resources.push([id, `Password ${i}`, 'login', typeId, now, now, owner, owner])
    permissions.push([randomUUID(), 'Resource', id, 'User', owner, 15, now, now])
    const readers = new Set([owner])
    if (i % 10 === 0) {
      permissions.push([randomUUID(), 'Resource', id, 'Group', groups[g], 1, now, now])
      for (const member of members[g]) readers.add(member)
    }
    for (const reader of readers) {
      secrets.push([randomUUID(), reader, id, secret, now, now])
      relations.push([randomUUID(), 'Resource', id, reader, null, now, now])
    }
  }
  await bulk('resources', resources, [
    'id',
    'name',
    'username',
    'resource_type_id',
    'created',
    'modified',
    'created_by',
    'modified_by',
  ])
  await bulk('permissions', permissions, [
    'id',
    'aco',
    'aco_foreign_key',
    'aro',
    'aro_foreign_key',
    'type',
    'created',
    'modified',
  ])
  await bulk('secrets', secrets, ['id', 'user_id', 'resource_id', 'data', 'created', 'modified'])
  await bulk('folders_relations', relations, [
    'id',
    'foreign_model',
    'foreign_id',
    'user_id',
    'folder_parent_id',
    'created',
    'modified',
  ])
  const server = await openpgp.generateKey({
    type: 'ecc',
    curve: 'curve25519Legacy',
    userIDs: [{ email: 'server@example.com' }],
    format: 'armored',
  })
  writeFileSync(join(dir, 'serverkey_private.asc'), server.privateKey)
  writeFileSync(join(dir, 'serverkey.asc'), server.publicKey)
  console.log(
    `seeded ${USERS} users, ${GROUPS} groups, ${PASSWORDS} passwords, ${secrets.length} secrets`,
  )

  const bin = fileURLToPath(new URL('../bin/api.js', import.meta.url))
  const started = performance.now()
  const run = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      'peak RSS %M KB',
      process.execPath,
      bin,
      'migrate-from-passbolt',
      '--from',
      `${MYSQL}${name}`,
      '--gpg-dir',
      dir,
    ],
    {
      env: {
        ...process.env,
        DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${name}`,
        KEYWARD_DATA_DIR: join(dir, 'data'),
      },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 256 * 1024 * 1024,
    },
  )
  const seconds = (performance.now() - started) / 1000
  if (run.status !== 0) throw new Error(run.stderr)
  console.log(/peak RSS \d+ KB/.exec(run.stderr)?.[0] ?? 'peak RSS unknown')
  console.log(
    run.stdout
      .split('\n')
      .filter((line: string) => /^\S+\s+\d+\s+\d+$/.test(line))
      .join('\n'),
  )
  console.log(
    `migrate-from-passbolt: ${seconds.toFixed(1)} s (process start and schema migrations included)`,
  )
} catch (error) {
  console.error(error)
  process.exitCode = 1
} finally {
  await db.end()
  await admin.query(`DROP DATABASE \`${name}\``)
  await admin.end()
  await pgAdmin.query(`drop database if exists ${name} with (force)`)
  await pgAdmin.end()
  rmSync(dir, { recursive: true, force: true })
}
