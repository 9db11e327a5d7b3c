// Benchmark of groups on a real `api start` process over loopback:
// - a user lists 500 groups with `contain[user_count]=1`;
// - a manager adds a member to a group of 1,000 users that reads 1,000 shared passwords, the
//   update carrying the 1,000 secrets the newcomer needs (one message, encrypted once for the
//   newcomer outside the timed part and sent for every password); then removes them again.
// Data is written with SQL. The other members' own secrets are not written: neither the
// addition nor the removal of another member reads them.
// Usage: node bin/run.js bench/groups.ts [--runs 30] [--updates 5]
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import * as openpgp from 'openpgp'
import { gpgAuthLogin, TestClient } from '../test/helpers/client.ts'
import {
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
    updates: { type: 'string', default: '5' },
    profile: { type: 'string' },
  },
})
const RUNS = Number(values.runs)
const UPDATES = Number(values.updates)
const GROUPS = 500
const MEMBERS = 1000
const PASSWORDS = 1000

const bench = await prepareBenchServer('bench_groups')
console.log('seeding…')
const {
  users: [manager, newcomer],
  db,
} = await setUpUsers(bench, ['manager', 'newcomer'])

await db.query(
  `insert into users (id, role_id, username, active)
   select gen_random_uuid(), (select id from roles where name = 'user'), 'member' || i || '@keyward.test', true
   from generate_series(1, ${MEMBERS}) i`,
)
// 500 groups of 10 members each, the manager in every tenth.
await db.query(
  `insert into groups (id, name, created_by, modified_by)
   select gen_random_uuid(), 'group ' || lpad(i::text, 4, '0'), $1::uuid, $1::uuid from generate_series(1, ${GROUPS}) i`,
  [manager.id],
)
await db.query(
  `insert into groups_users (id, group_id, user_id, is_admin)
   select gen_random_uuid(), g.id, u.id, u.n % 10 = 0
   from (select id, row_number() over (order by name) as n from groups) g
   join (select id, row_number() over (order by username) as n from users where username like 'member%') u
     on u.n % ${GROUPS} = g.n % ${GROUPS}`,
)
// The big group: every member plus the manager, reading 1,000 passwords the manager owns.
const team = randomUUID()
await db.query(
  `insert into groups (id, name, created_by, modified_by) values ($1, 'Everyone', $2, $2)`,
  [team, manager.id],
)
await db.query(
  `insert into groups_users (id, group_id, user_id, is_admin)
   select gen_random_uuid(), $1, id, id = $2::uuid from users where username like 'member%' or id = $2::uuid`,
  [team, manager.id],
)
const resources = Array.from({ length: PASSWORDS }, () => randomUUID())
await db.query(
  `insert into resources (id, name, resource_type_id, created_by, modified_by)
   select id, 'password ' || n, 'a28a04cd-6f53-518a-967c-9963bf9cec51', $2, $2
   from unnest($1::uuid[]) with ordinality r(id, n)`,
  [resources, manager.id],
)
await db.query(
  `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type, created_by, modified_by)
   select gen_random_uuid(), 'Resource', id, 'User', $2::uuid, 15, $2::uuid, $2::uuid from unnest($1::uuid[]) id
   union all
   select gen_random_uuid(), 'Resource', id, 'Group', $3::uuid, 1, $2::uuid, $2::uuid from unnest($1::uuid[]) id`,
  [resources, manager.id, team],
)
const encrypt = async (key: openpgp.Key) =>
  (await openpgp.encrypt({
    message: await openpgp.createMessage({ text: '{"password":"secret","description":""}' }),
    encryptionKeys: key,
  })) as string
const managerSecret = await encrypt(manager.key.publicKey)
await db.query(
  `insert into secrets (id, resource_id, user_id, data) select gen_random_uuid(), id, $2, $3 from unnest($1::uuid[]) id`,
  [resources, manager.id, managerSecret],
)
await db.query('analyze')
// One message for the newcomer, sent for every password (the server checks form and recipient).
const newcomerSecret = await encrypt(newcomer.key.publicKey)

const server = await startApiProcess(bench.env, { profileDir: values.profile })
try {
  const client = new TestClient(bench.base)
  await gpgAuthLogin(client, manager.key)
  const idle = rssMiB(server.pid!)
  const times: number[] = []
  let count = 0
  for (let i = 0; i < RUNS + 2; i++) {
    const started = performance.now()
    const response = await client.fetch('/groups.json?contain[user_count]=1')
    const elapsed = performance.now() - started
    if (response.status !== 200) throw new Error(`list: ${response.status} ${response.text}`)
    if (i >= 2) times.push(elapsed)
    count = response.json.body.length
  }
  console.log(
    `\nlist ${count} groups with contain[user_count], ${RUNS} runs: p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms (target p50 < 60 ms); server RSS ${idle.toFixed(0)} MiB idle`,
  )

  const add = { groups_users: [{ user_id: newcomer.id, is_admin: false }] }
  const dryRuns: number[] = []
  const adds: number[] = []
  const removals: number[] = []
  for (let i = 0; i < UPDATES; i++) {
    let started = performance.now()
    const dryRun = await client.json(`/groups/${team}/dry-run.json`, 'PUT', add)
    dryRuns.push(performance.now() - started)
    const needed = dryRun.json.body['dry-run'].SecretsNeeded
    if (needed.length !== PASSWORDS) throw new Error(`dry run: ${dryRun.status} ${needed.length}`)
    const body = {
      ...add,
      secrets: needed.map(({ Secret }: { Secret: { resource_id: string } }) => ({
        resource_id: Secret.resource_id,
        user_id: newcomer.id,
        data: newcomerSecret,
      })),
    }
    started = performance.now()
    const added = await client.json(`/groups/${team}.json`, 'PUT', body)
    adds.push(performance.now() - started)
    if (added.status !== 200) throw new Error(`add: ${added.status} ${added.text.slice(0, 500)}`)
    const membership = added.json.body.groups_users.find(
      (m: { user_id: string }) => m.user_id === newcomer.id,
    )
    started = performance.now()
    const removed = await client.json(`/groups/${team}.json`, 'PUT', {
      groups_users: [{ id: membership.id, delete: true }],
    })
    removals.push(performance.now() - started)
    if (removed.status !== 200) throw new Error(`remove: ${removed.status} ${removed.text}`)
  }
  const [{ left }] = (
    await db.query('select count(*)::int as left from secrets where user_id = $1', [newcomer.id])
  ).rows
  console.log(
    `add a member to a group of ${MEMBERS + 1} reading ${PASSWORDS} passwords, with ${PASSWORDS} secrets, ${UPDATES} runs: p50 ${percentile(adds, 0.5).toFixed(1)} ms, max ${Math.max(...adds).toFixed(1)} ms (target < 1,000 ms); dry run p50 ${percentile(dryRuns, 0.5).toFixed(1)} ms; removal p50 ${percentile(removals, 0.5).toFixed(1)} ms (${left} secrets left to the removed member); server RSS ${rssMiB(server.pid!).toFixed(0)} MiB after`,
  )
} finally {
  await stopProcess(server)
  await db.end()
  bench.cleanup()
}
