// Benchmark of resources and sharing on a real `api start` process over loopback:
// - a user who can read 10,000 resources (half through groups, five permissions each) lists
//   them with `contain[permission]`, `contain[favorite]` and `contain[permissions.user.profile]`;
// - an owner shares one resource with a group of 1,000 members, sending 1,000 secrets.
// Data is written with SQL; the 1,000 members have real keys and real encrypted secrets.
// Usage: node bin/run.js bench/resources.ts [--resources 10000] [--members 1000] [--runs 20]
import { parseArgs } from 'node:util'
import * as openpgp from 'openpgp'
import { bootApp, createLogger, shutdownApp } from '../api/app.ts'
import { loadConfig } from '../api/config.ts'
import { plugins } from '../plugins/index.ts'
import { generateUserKey, gpgAuthLogin, TestClient } from '../test/helpers/client.ts'
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
    resources: { type: 'string', default: '10000' },
    members: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '20' },
    /** Write a CPU profile of the API server into this folder. */
    profile: { type: 'string' },
    /** Stop after the list measurement. */
    'list-only': { type: 'boolean', default: false },
  },
})
const RESOURCES = Number(values.resources)
const MEMBERS = Number(values.members)
const RUNS = Number(values.runs)
const bench = await prepareBenchServer('bench_resources')
const { base, env } = bench
console.log('seeding…')
const {
  users: [reader, owner],
  db,
} = await setUpUsers(bench, ['reader', 'owner'])

// 50 other users (profiles and keys are not needed for listing them) and 20 groups, 10 of
// which the reader belongs to.
for (const statement of [
  `insert into users (id, role_id, username, active)
     select gen_random_uuid(), (select id from roles where name = 'user'), 'other' || i || '@keyward.test', true
     from generate_series(1, 50) i`,
  `insert into profiles (id, user_id, first_name, last_name)
     select gen_random_uuid(), id, 'Other', username from users where username like 'other%'`,
  `insert into groups (id, name) select gen_random_uuid(), 'group' || i from generate_series(1, 20) i`,
  `insert into groups_users (id, group_id, user_id)
     select gen_random_uuid(), g.id, '${reader.id}' from groups g where g.name ~ '^group([1-9]|10)$'`,
  `insert into resources (id, name, username, uri, resource_type_id, created_by, modified_by)
     select gen_random_uuid(), 'resource ' || lpad(i::text, 6, '0'), 'user' || i, 'https://example.com/' || i,
       'a28a04cd-6f53-518a-967c-9963bf9cec51', '${owner.id}', '${owner.id}'
     from generate_series(1, ${RESOURCES}) i`,
  // Five permissions each: the owner, two other users, and either the reader directly plus one
  // group, or two groups one of which the reader belongs to.
  `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
     select gen_random_uuid(), 'Resource', r.id, 'User', '${owner.id}', 15 from resources r`,
  `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
     select gen_random_uuid(), 'Resource', r.id, 'User', u.id, 1
     from (select id, row_number() over (order by id) n from resources) r
     join (select id, row_number() over (order by id) n from users where username like 'other%') u
       on u.n in (r.n % 50 + 1, (r.n + 7) % 50 + 1)`,
  `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
     select gen_random_uuid(), 'Resource', r.id, 'User', '${reader.id}', 7
     from (select id, row_number() over (order by id) n from resources) r where r.n % 2 = 0`,
  `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
     select gen_random_uuid(), 'Resource', r.id, 'Group', g.id, 1
     from (select id, row_number() over (order by id) n from resources) r
     join (select id, row_number() over (order by name) n from groups) g
       on (r.n % 2 = 0 and g.n = r.n % 10 + 11) or (r.n % 2 = 1 and g.n in (r.n % 10 + 1, r.n % 10 + 11))`,
  `insert into favorites (id, user_id, foreign_key, foreign_model)
     select gen_random_uuid(), '${reader.id}', id, 'Resource' from resources limit ${Math.floor(RESOURCES / 10)}`,
  'analyze',
])
  await db.query(statement)
const [{ readable }] = (
  await db.query(
    `select count(distinct p.aco_foreign_key)::int as readable from permissions p
     where p.aro_foreign_key = $1 or p.aro_foreign_key in (select group_id from groups_users where user_id = $1)`,
    [reader.id],
  )
).rows

const server = await startApiProcess(env, { profileDir: values.profile })

try {
  const client = new TestClient(base)
  await gpgAuthLogin(client, reader.key)
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  const measureList = async (label: string, url: string, target: string) => {
    const idle = rssMiB(server.pid!)
    let peak = idle
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB(server.pid!))
    }, 20)
    const times: number[] = []
    let cpu = 0
    let bytes = 0
    let count = 0
    for (let i = 0; i < RUNS + 2; i++) {
      const cpuBefore = cpuMs(server.pid!)
      const started = performance.now()
      const response = await fetch(`${base}${url}`, { headers: { cookie } })
      const text = await response.text()
      const elapsed = performance.now() - started
      if (response.status !== 200) throw new Error(`list: ${response.status} ${text.slice(0, 200)}`)
      if (i >= 2) {
        times.push(elapsed)
        cpu += cpuMs(server.pid!) - cpuBefore
      }
      bytes = text.length
      count = JSON.parse(text).body.length
    }
    clearInterval(sampler)
    console.log(
      `\n${label}: ${count} readable resources (expected ${readable}), ${(bytes / 2 ** 20).toFixed(1)} MiB of JSON, ${RUNS} runs: p50 ${percentile(times, 0.5).toFixed(0)} ms, p95 ${percentile(times, 0.95).toFixed(0)} ms (${target}); server CPU ${(cpu / RUNS).toFixed(0)} ms a request; server RSS ${idle.toFixed(0)} MiB idle, ${peak.toFixed(0)} MiB peak`,
    )
  }
  await measureList(
    'list with contain[permission], contain[favorite], contain[permissions.user.profile]',
    '/resources.json?contain[permission]=1&contain[favorite]=1&contain[permissions.user.profile]=1',
    'target p50 < 150 ms',
  )
  // What the official extension asks for when it synchronises its local copy of the workspace.
  await measureList(
    "the extension's sync call (contain[permission], contain[favorite], contain[tag])",
    '/resources.json?contain[permission]=1&contain[favorite]=1&contain[tag]=1',
    'no target of its own',
  )

  if (!values['list-only']) await shareBenchmark()
} finally {
  await stopProcess(server)
  await db.end()
  bench.cleanup()
}

/** Shares one resource with a group of MEMBERS users with real keys. */
async function shareBenchmark() {
  console.log(`making ${MEMBERS} members with keys…`)
  const members: { id: string; publicKey: openpgp.Key }[] = []
  const appForMembers = await bootApp({
    config: loadConfig({ env: { ...env, KEYWARD_PORT: '0' } }),
    plugins,
    migrate: false,
    logger: createLogger({ logLevel: 'warn' }),
  })
  for (let i = 0; i < MEMBERS; i++) {
    const key = await generateUserKey(`member${i}@keyward.test`)
    const id = crypto.randomUUID()
    members.push({ id, publicKey: key.publicKey })
    await db.query(
      `insert into users (id, role_id, username, active) values ($1, (select id from roles where name = 'user'), $2, true)`,
      [id, `member${i}@keyward.test`],
    )
    await db.query(
      `insert into gpgkeys (id, user_id, armored_key, uid, key_id, fingerprint, type) values (gen_random_uuid(), $1, $2, $3, $4, $5, 'ECC')`,
      [id, key.armoredPublicKey, `member${i}`, key.fingerprint.slice(-16), key.fingerprint],
    )
  }
  await shutdownApp(appForMembers)
  const [{ id: groupId }] = (
    await db.query(
      `insert into groups (id, name) values (gen_random_uuid(), 'Everyone') returning id`,
    )
  ).rows
  await db.query(
    `insert into groups_users (id, group_id, user_id) select gen_random_uuid(), $1, unnest($2::uuid[])`,
    [groupId, members.map((m) => m.id)],
  )
  const ownerClient = new TestClient(base)
  await gpgAuthLogin(ownerClient, owner.key)
  const created = await ownerClient.json('/resources.json', 'POST', {
    name: 'to share',
    resource_type_id: 'a28a04cd-6f53-518a-967c-9963bf9cec51',
    secrets: [
      {
        data: await openpgp.encrypt({
          message: await openpgp.createMessage({ text: '{"password":"p"}' }),
          encryptionKeys: owner.key.publicKey,
        }),
      },
    ],
  })
  const resourceId = created.json.body.id
  const permissions = [{ aro: 'Group', aro_foreign_key: groupId, type: 1 }]
  const simulateStart = performance.now()
  const simulated = await ownerClient.json(`/share/simulate/resource/${resourceId}.json`, 'POST', {
    permissions,
  })
  const simulateMs = performance.now() - simulateStart
  console.log(`encrypting ${simulated.json.body.changes.added.length} secrets…`)
  const message = await openpgp.createMessage({ text: '{"password":"p"}' })
  const secrets = await Promise.all(
    members.map(async (member) => ({
      user_id: member.id,
      data: (await openpgp.encrypt({ message, encryptionKeys: member.publicKey })) as string,
    })),
  )
  const shareStart = performance.now()
  const shared = await ownerClient.json(`/share/resource/${resourceId}.json`, 'PUT', {
    permissions,
    secrets,
  })
  const shareMs = performance.now() - shareStart
  if (shared.status !== 200) throw new Error(`share: ${shared.status} ${shared.text.slice(0, 300)}`)
  const [{ n }] = (
    await db.query('select count(*)::int as n from secrets where resource_id = $1', [resourceId])
  ).rows
  console.log(
    `share one resource with a group of ${MEMBERS}: simulate ${simulateMs.toFixed(0)} ms, share with ${secrets.length} secrets (${(JSON.stringify(secrets).length / 2 ** 20).toFixed(1)} MiB) ${shareMs.toFixed(0)} ms (target < 1,000 ms); ${n} secrets stored`,
  )
}
