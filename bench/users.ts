// Benchmark of the user directory on a real `api start` process over loopback, beside the bare
// Koa + `SELECT 1` ceiling measured the same way in the same run: a user lists 5,000 users with
// profile, key and group memberships (each user in two of 50 groups), as the users workspace
// asks, then with the extension's directory contains; one request at a time: p50, p95, server
// CPU and the server's RSS growth while serving. Data is written with SQL.
// Usage: node bin/run.js bench/users.ts [--runs 30] [--profile <dir>]
import { parseArgs } from 'node:util'
import { gpgAuthLogin, TestClient } from '../test/helpers/client.ts'
import {
  changeBefore,
  type Figures,
  loadAverage,
  measure,
  prepareBenchServer,
  setUpUsers,
  startApiProcess,
  startCeiling,
  stopProcess,
} from './api-process.ts'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    /** Write a CPU profile of the API server into this folder. */
    profile: { type: 'string' },
  },
})
const RUNS = Number(values.runs)
const USERS = 5_000
const GROUPS = 50

const bench = await prepareBenchServer('bench_users')
console.log('seeding…')
// A real key, copied to every seeded user (under a fingerprint of its own, as fingerprints are
// unique), so the answer weighs what a real directory weighs.
const {
  users: [reader, sample],
  db,
} = await setUpUsers(bench, ['reader', 'sample'])
await db.query(
  `insert into users (id, role_id, username, active)
   select gen_random_uuid(), (select id from roles where name = 'user'), 'person' || i || '@keyward.test', true
   from generate_series(1, ${USERS - 2}) i`,
)
await db.query(
  `insert into profiles (id, user_id, first_name, last_name)
   select gen_random_uuid(), id, 'First' || right(username, 6), 'Last' from users where username like 'person%'`,
)
await db.query(
  `insert into gpgkeys (id, user_id, armored_key, bits, uid, key_id, fingerprint, type, expires, key_created)
   select gen_random_uuid(), u.id, k.armored_key, k.bits, k.uid, k.key_id,
     upper(substr(md5(u.id::text) || md5(u.username), 1, 40)), k.type, k.expires, k.key_created
   from users u, gpgkeys k where u.username like 'person%' and k.user_id = $1`,
  [sample.id],
)
await db.query(
  `insert into groups (id, name) select gen_random_uuid(), 'group ' || i from generate_series(1, ${GROUPS}) i`,
)
await db.query(
  `insert into groups_users (id, group_id, user_id, is_admin)
   select gen_random_uuid(), g.id, u.id, false
   from (select id, row_number() over (order by id) n from users) u
   join (select id, row_number() over (order by id) n from groups) g
     on g.n = 1 + u.n % ${GROUPS} or g.n = 1 + (u.n + 7) % ${GROUPS}`,
)
await db.query('analyze')

const server = await startApiProcess(bench.env, { profileDir: values.profile })
const ceiling = await startCeiling(bench)
try {
  const client = new TestClient(bench.base)
  await gpgAuthLogin(client, reader.key)
  const headers = { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
  console.log(`load ${loadAverage()}`)
  const withKeysUrl = `${bench.base}/users.json?contain[profile]=1&contain[gpgkey]=1&contain[groups_users]=1`
  const withKeys = await measure(server, withKeysUrl, headers, RUNS)
  // After anyone's change to a profile (the statement changes no row, but its table announces
  // it all the same), the list is written by PostgreSQL again.
  const withKeysChanged = await measure(
    server,
    withKeysUrl,
    headers,
    RUNS,
    changeBefore(db, 'update profiles set modified = modified where false'),
  )
  // What the official extension asks for when it opens the users workspace or the share dialog
  // (`missing_metadata_key_ids` only when the caller is an administrator).
  const directory = await measure(
    server,
    `${bench.base}/users.json?contain[profile]=1&contain[gpgkey]=0&contain[groups_users]=0&contain[pending_account_recovery_request]=1&contain[account_recovery_user_setting]=1&contain[is_mfa_enabled]=1&contain[LastLoggedIn]=1`,
    headers,
    RUNS,
  )
  const top = await measure(ceiling.process, ceiling.url, {}, RUNS)
  const line = (label: string, f: Figures, target: string) =>
    console.log(
      `| ${label} | ${f.count} | ${(f.bytes / 2 ** 20).toFixed(2)} MiB | ${f.p50.toFixed(1)} ms | ${f.p95.toFixed(1)} ms | ${(f.p50 / top.p50).toFixed(1)}x | ${f.cpu.toFixed(0)} ms | ${f.growth.toFixed(0)} MiB | ${target} |`,
    )
  console.log(
    '\n| request | users | JSON | p50 | p95 | p50 / ceiling p50 | server CPU a request | server RSS growth | target |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|')
  line('bare Koa + SELECT 1 (ceiling)', top, '')
  line(
    'with profile, gpgkey and groups_users, nothing changed since the last',
    withKeys,
    'p50 < 80 ms',
  )
  line('the same, after a change each time', withKeysChanged, '')
  line("the extension's directory call", directory, '')
  console.log(`load ${loadAverage()}`)
} finally {
  await stopProcess(server)
  await stopProcess(ceiling.process)
  await db.end()
  bench.cleanup()
}
