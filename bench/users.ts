// Benchmark of the user directory on a real `api start` process over loopback: a user lists
// 5,000 users with profile, key and group memberships (each user in two of 50 groups), as the
// users workspace asks. Data is written with SQL.
// Usage: node bin/run.js bench/users.ts [--runs 30] [--profile <dir>]
import { parseArgs } from 'node:util'
import { gpgAuthLogin, TestClient } from '../test/helpers/client.ts'
import {
  cpuMs,
  percentile,
  prepareBenchServer,
  rssMiB,
  setUpUsers,
  startApiProcess,
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
try {
  const client = new TestClient(bench.base)
  await gpgAuthLogin(client, reader.key)
  const measure = async (label: string, url: string, target: string) => {
    const idle = rssMiB(server.pid!)
    const times: number[] = []
    let count = 0
    let bytes = 0
    let cpuStart = 0
    for (let i = 0; i < RUNS + 2; i++) {
      if (i === 2) cpuStart = cpuMs(server.pid!)
      const started = performance.now()
      const response = await client.fetch(url)
      const elapsed = performance.now() - started
      if (response.status !== 200) throw new Error(`list: ${response.status} ${response.text}`)
      if (i >= 2) times.push(elapsed)
      count = response.json.body.length
      bytes = response.text.length
    }
    const cpu = (cpuMs(server.pid!) - cpuStart) / RUNS
    console.log(
      `\n${label}: ${count} users, ${(bytes / 2 ** 20).toFixed(2)} MiB, ${RUNS} runs: p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms (${target}); server CPU ${cpu.toFixed(0)} ms a request; server RSS ${idle.toFixed(0)} MiB idle, ${rssMiB(server.pid!).toFixed(0)} MiB after`,
    )
  }
  await measure(
    'list with profile, gpgkey and groups_users',
    '/users.json?contain[profile]=1&contain[gpgkey]=1&contain[groups_users]=1',
    'target p50 < 60 ms',
  )
  // What the official extension asks for when it opens the users workspace or the share dialog.
  await measure(
    "the extension's directory call",
    '/users.json?contain[profile]=1&contain[gpgkey]=0&contain[groups_users]=0&contain[pending_account_recovery_request]=1&contain[account_recovery_user_setting]=1&contain[is_mfa_enabled]=1&contain[missing_metadata_key_ids]=1&contain[LastLoggedIn]=1',
    'no target of its own',
  )
} finally {
  await stopProcess(server)
  await db.end()
  bench.cleanup()
}
