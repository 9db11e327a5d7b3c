// Benchmark of resources and sharing on a real `api start` process over loopback, beside the
// bare Koa + `SELECT 1` ceiling measured the same way in the same run:
// - a user who can read 10,000 resources (half directly, all through groups, five permissions
//   each, favourites, tags, folder-tree entries; `bench/seed-organisation.ts`) lists them with
//   the extension's sync contains, and with the permission tree (`permissions.user.profile`),
//   one request at a time: p50, p95, server CPU and the server's RSS growth while serving;
// - with `--large N`, the sync call again for a reader of 10,000 in an organisation of N;
// - an owner shares one resource with a group of 1,000 members, sending 1,000 secrets.
// Data is written with SQL; the 1,000 members have real keys and real encrypted secrets.
// Usage: node bin/run.js bench/resources.ts [--resources 10000] [--large 100000] [--members 1000]
//   [--runs 20] [--list-only] [--profile DIR]
import { parseArgs } from 'node:util'
import * as openpgp from 'openpgp'
import { bootApp, createLogger, shutdownApp } from '../api/app.ts'
import { loadConfig } from '../api/config.ts'
import { plugins } from '../plugins/index.ts'
import { generateUserKey, gpgAuthLogin, TestClient } from '../test/helpers/client.ts'
import { jwtLogin } from '../test/helpers/jwt.ts'
import {
  type BenchServer,
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
import { seedOrganisation } from './seed-organisation.ts'

const { values } = parseArgs({
  options: {
    resources: { type: 'string', default: '10000' },
    /** Also measure the sync call in an organisation of this many passwords. */
    large: { type: 'string' },
    members: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '20' },
    /** Write a CPU profile of the API server into this folder. */
    profile: { type: 'string' },
    /** Stop after the list measurements. */
    'list-only': { type: 'boolean', default: false },
  },
})
const RESOURCES = Number(values.resources)
const MEMBERS = Number(values.members)
const RUNS = Number(values.runs)
const READABLE = Math.min(RESOURCES, 10_000)

const SYNC = '/resources.json?contain[permission]=1&contain[favorite]=1&contain[tag]=1'
const TREE =
  '/resources.json?contain[permission]=1&contain[favorite]=1&contain[permissions.user.profile]=1'

/** A new password of `$1`, theirs alone, as saving one writes it (behind the server's back). */
const SAVE_PASSWORD = `with saved as (
    insert into resources (id, name, resource_type_id, created_by, modified_by)
    select gen_random_uuid(), 'another', id, $1, $1 from resource_types order by slug limit 1
    returning id)
  insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
  select gen_random_uuid(), 'Resource', saved.id, 'User', $1, 15 from saved`

/** A change to one of the reader's permissions: their next list is written afresh. */
const changeShown = (db: Parameters<typeof changeBefore>[0], readerId: string) =>
  changeBefore(
    db,
    `update permissions set modified = now() where id =
       (select id from permissions where aro = 'User' and aro_foreign_key = $1 limit 1)`,
    [readerId],
  )

const line = (label: string, f: Figures, ceiling: Figures, target: string) =>
  console.log(
    `| ${label} | ${f.count} | ${(f.bytes / 2 ** 20).toFixed(1)} MiB | ${f.p50.toFixed(1)} ms | ${f.p95.toFixed(1)} ms | ${(f.p50 / ceiling.p50).toFixed(1)}x | ${f.cpu.toFixed(0)} ms | ${f.growth.toFixed(0)} MiB | ${target} |`,
  )

/** An organisation of `resources`, its server and the ceiling, and the reader signed in. */
const organisation = async (name: string, resources: number) => {
  const bench = await prepareBenchServer(name)
  console.log(`seeding ${resources} passwords…`)
  const {
    users: [reader, owner],
    db,
  } = await setUpUsers(bench, ['reader', 'owner'])
  const seeded = await seedOrganisation(db, { reader, owner }, { resources, readable: READABLE })
  const server = await startApiProcess(bench.env, { profileDir: values.profile })
  const ceiling = await startCeiling(bench)
  const client = new TestClient(bench.base)
  await gpgAuthLogin(client, reader.key)
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  return {
    bench,
    db,
    owner,
    reader,
    server,
    readable: seeded.readable,
    headers: { cookie },
    ceiling: () => measure(ceiling.process, ceiling.url, {}, RUNS),
    stop: async () => {
      await stopProcess(server)
      await stopProcess(ceiling.process)
    },
    close: async (self: {
      stop(): Promise<void>
      db: { end(): Promise<void> }
      bench: BenchServer
    }) => {
      await self.stop()
      await self.db.end()
      self.bench.cleanup()
    },
  }
}

const header = () => {
  console.log(
    '\n| request | resources | JSON | p50 | p95 | p50 / ceiling p50 | server CPU a request | server RSS growth | target |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|')
}

const org = await organisation('bench_resources', RESOURCES)
try {
  const { base } = org.bench
  console.log(
    `the reader can read ${org.readable} of ${RESOURCES} passwords; load ${loadAverage()}`,
  )
  // The permission tree first, on a server that has not yet served anything large.
  const tree = await measure(org.server, `${base}${TREE}`, org.headers, RUNS)
  const sync = await measure(org.server, `${base}${SYNC}`, org.headers, RUNS)
  // After a change to what the reader's list shows (one of their permissions), the list is
  // written by PostgreSQL again.
  const syncChanged = await measure(
    org.server,
    `${base}${SYNC}`,
    org.headers,
    RUNS,
    changeShown(org.db, org.reader.id),
  )
  // After another member saves a password the reader cannot read, their list stays kept.
  const syncAfterOther = await measure(
    org.server,
    `${base}${SYNC}`,
    org.headers,
    RUNS,
    changeBefore(org.db, SAVE_PASSWORD, [org.owner.id]),
  )
  // After a sign-in of the same user on the mobile app each time (a JWT sign-in: GPGAuth allows
  // an account 10 challenges a minute): the user's row changes, which the sync call does not
  // show.
  const signIn = async () => {
    const { response } = await jwtLogin(new TestClient(base), org.reader.id, org.reader.key, base)
    if (response.status !== 200) throw new Error(`sign-in failed: ${response.text}`)
  }
  const syncAfterSignIn = await measure(org.server, `${base}${SYNC}`, org.headers, RUNS, signIn)
  // The same call through the object path (rows shaped in Node, contains loaded on objects),
  // which `contain[resource-type]` still takes.
  const syncOnObjects = await measure(
    org.server,
    `${base}${SYNC}&contain[resource-type]=1`,
    org.headers,
    RUNS,
  )
  const ceiling = await org.ceiling()
  const health = await measure(org.server, `${base}/healthcheck/status.json`, {}, RUNS)
  header()
  line('bare Koa + SELECT 1 (ceiling)', ceiling, ceiling, '')
  line('GET /healthcheck/status.json', health, ceiling, '')
  line(
    "the extension's sync call (permission, favorite, tag), nothing changed since the last",
    sync,
    ceiling,
    'p50 < 60 ms',
  )
  line('the same call, after a change to what it shows each time', syncChanged, ceiling, '')
  line(
    'the same call, after another member saves a password the reader cannot read each time',
    syncAfterOther,
    ceiling,
    '',
  )
  line(
    "the same call, after the user's sign-in on the mobile app each time",
    syncAfterSignIn,
    ceiling,
    '',
  )
  line('the same on objects (resource-type added)', syncOnObjects, ceiling, '')
  line(
    'with the permission tree (permissions.user.profile)',
    tree,
    ceiling,
    'p50 < 300 ms, RSS growth < 100 MiB',
  )
  console.log(`load ${loadAverage()}`)
  if (!values['list-only']) await shareBenchmark(org.bench, org.db, org.owner)
  if (values.large) {
    await org.stop()
    const large = await organisation('bench_resources_large', Number(values.large))
    try {
      console.log(`the reader can read ${large.readable} of ${values.large} passwords`)
      // Each after a change: what the statement costs in an organisation this large.
      const largeSync = await measure(
        large.server,
        `${large.bench.base}${SYNC}`,
        large.headers,
        RUNS,
        changeShown(large.db, large.reader.id),
      )
      const largeCeiling = await large.ceiling()
      header()
      line('bare Koa + SELECT 1 (ceiling)', largeCeiling, largeCeiling, '')
      line(
        `the sync call after a change, organisation of ${values.large}`,
        largeSync,
        largeCeiling,
        '',
      )
      console.log(
        `\nsync call after a change, organisation of ${values.large} against ${RESOURCES}: p50 ${(largeSync.p50 / syncChanged.p50).toFixed(2)}x, server CPU ${(largeSync.cpu / syncChanged.cpu).toFixed(2)}x (target within 1.3x); load ${loadAverage()}`,
      )
    } finally {
      await large.close(large)
    }
  }
} finally {
  await org.close(org)
}

/** Shares one resource with a group of MEMBERS users with real keys. */
async function shareBenchmark(
  bench: BenchServer,
  db: Awaited<ReturnType<typeof setUpUsers>>['db'],
  owner: Awaited<ReturnType<typeof setUpUsers>>['users'][number],
) {
  const { base, env } = bench
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
