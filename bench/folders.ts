// Benchmark of folders on a real `api start` process over loopback:
// - a user with 2,000 folders nested 6 deep (half of them also shared with a group they belong
//   to) lists them with `contain[permission]`;
// - an owner moves a folder holding 500 resources into a folder shared with a group of 50 users
//   who see both, so the move reaches the trees of 51 users.
// Data is written with SQL.
// Usage: node bin/run.js bench/folders.ts [--runs 30] [--moves 20]
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
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
    moves: { type: 'string', default: '20' },
    /** Write a CPU profile of the API server into this folder. */
    profile: { type: 'string' },
  },
})
const RUNS = Number(values.runs)
const MOVES = Number(values.moves)
/** Folders per depth: 2,000 in all, 6 levels. */
const LEVELS = [10, 30, 90, 270, 600, 1000]
const MOVED_RESOURCES = 500
const GROUP_MEMBERS = 50

const bench = await prepareBenchServer('bench_folders')
console.log('seeding…')
const {
  users: [reader, owner],
  db,
} = await setUpUsers(bench, ['reader', 'owner'])

// The reader's tree: each folder of a level under one of the previous level's folders.
const ids: string[] = []
const parents: (string | null)[] = []
const levelStart: number[] = []
for (const [level, size] of LEVELS.entries()) {
  levelStart.push(ids.length)
  for (let i = 0; i < size; i++) {
    ids.push(randomUUID())
    parents.push(level === 0 ? null : ids[levelStart[level - 1] + (i % LEVELS[level - 1])])
  }
}
const [{ id: readerGroup }] = (
  await db.query(`insert into groups (id, name) values (gen_random_uuid(), 'Readers') returning id`)
).rows
await db.query(
  `insert into groups_users (id, group_id, user_id) values (gen_random_uuid(), $1, $2)`,
  [readerGroup, reader.id],
)
await db.query(
  `insert into folders (id, name, created_by, modified_by)
   select id, 'folder ' || n, $2, $2 from unnest($1::uuid[]) with ordinality f(id, n)`,
  [ids, reader.id],
)
await db.query(
  `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type, created_by, modified_by)
   select gen_random_uuid(), 'Folder', id, 'User', $2, 15, $2, $2 from unnest($1::uuid[]) id`,
  [ids, reader.id],
)
await db.query(
  `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type, created_by, modified_by)
   select gen_random_uuid(), 'Folder', id, 'Group', $2, 7, $3, $3
   from unnest($1::uuid[]) with ordinality f(id, n) where n % 2 = 0`,
  [ids, readerGroup, reader.id],
)
await db.query(
  `insert into folders_relations (id, foreign_model, foreign_id, user_id, folder_parent_id)
   select gen_random_uuid(), 'Folder', id, $3, parent from unnest($1::uuid[], $2::uuid[]) f(id, parent)`,
  [ids, parents, reader.id],
)

// The move: "Moved" (500 resources inside) and "Shared", both owned by the owner and readable by
// a group of 50 members, each of whom has both folders at their root and the resources in "Moved".
await db.query(
  `insert into users (id, role_id, username, active)
   select gen_random_uuid(), (select id from roles where name = 'user'), 'member' || i || '@keyward.test', true
   from generate_series(1, ${GROUP_MEMBERS}) i`,
)
const [{ id: team }] = (
  await db.query(`insert into groups (id, name) values (gen_random_uuid(), 'Team') returning id`)
).rows
await db.query(
  `insert into groups_users (id, group_id, user_id)
   select gen_random_uuid(), $1, id from users where username like 'member%'`,
  [team],
)
const moved = randomUUID()
const shared = randomUUID()
const resources = Array.from({ length: MOVED_RESOURCES }, () => randomUUID())
await db.query(
  `insert into folders (id, name, created_by, modified_by) values ($1, 'Moved', $3, $3), ($2, 'Shared', $3, $3)`,
  [moved, shared, owner.id],
)
await db.query(
  `insert into resources (id, name, resource_type_id, created_by, modified_by)
   select id, 'resource ' || n, 'a28a04cd-6f53-518a-967c-9963bf9cec51', $2, $2
   from unnest($1::uuid[]) with ordinality r(id, n)`,
  [resources, owner.id],
)
for (const [aco, list] of [
  ['Folder', [moved, shared]],
  ['Resource', resources],
] as const) {
  await db.query(
    `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type, created_by, modified_by)
     select gen_random_uuid(), $1, id, 'User', $3::uuid, 15, $3::uuid, $3::uuid from unnest($2::uuid[]) id
     union all
     select gen_random_uuid(), $1, id, 'Group', $4::uuid, 1, $3::uuid, $3::uuid from unnest($2::uuid[]) id`,
    [aco, list, owner.id, team],
  )
}
await db.query(
  `insert into folders_relations (id, foreign_model, foreign_id, user_id, folder_parent_id)
   select gen_random_uuid(), 'Folder', f.id, u.id, null::uuid
   from unnest($1::uuid[]) f(id), users u where u.id = $2::uuid or u.username like 'member%'
   union all
   select gen_random_uuid(), 'Resource', r.id, u.id, $3::uuid
   from unnest($4::uuid[]) r(id), users u where u.id = $2::uuid or u.username like 'member%'`,
  [[moved, shared], owner.id, moved, resources],
)
await db.query('analyze')

const server = await startApiProcess(bench.env, { profileDir: values.profile })
try {
  const client = new TestClient(bench.base)
  await gpgAuthLogin(client, reader.key)
  const idle = rssMiB(server.pid!)
  const times: number[] = []
  let count = 0
  let bytes = 0
  for (let i = 0; i < RUNS + 2; i++) {
    const started = performance.now()
    const response = await client.fetch('/folders.json?contain[permission]=1')
    const elapsed = performance.now() - started
    if (response.status !== 200) throw new Error(`list: ${response.status} ${response.text}`)
    if (i >= 2) times.push(elapsed)
    count = response.json.body.length
    bytes = response.text.length
  }
  const deepest = (await client.fetch(`/folders/${ids.at(-1)}.json`)).json.body
  if (deepest.folder_parent_id !== parents.at(-1)) throw new Error('the tree was not read back')
  console.log(
    `\nlist ${count} folders (6 levels) with contain[permission], ${(bytes / 2 ** 20).toFixed(2)} MiB, ${RUNS} runs: p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms (target p50 < 80 ms); server RSS ${idle.toFixed(0)} MiB idle, ${rssMiB(server.pid!).toFixed(0)} MiB after`,
  )

  const ownerClient = new TestClient(bench.base)
  await gpgAuthLogin(ownerClient, owner.key)
  const into: number[] = []
  const out: number[] = []
  for (let i = 0; i < MOVES; i++) {
    for (const [parent, list] of [
      [shared, into],
      [null, out],
    ] as const) {
      const started = performance.now()
      const response = await ownerClient.json(`/move/folder/${moved}.json`, 'PUT', {
        folder_parent_id: parent,
      })
      list.push(performance.now() - started)
      if (response.status !== 200) throw new Error(`move: ${response.status} ${response.text}`)
    }
  }
  await ownerClient.json(`/move/folder/${moved}.json`, 'PUT', { folder_parent_id: shared })
  const [{ placed }] = (
    await db.query(
      `select count(*)::int as placed from folders_relations where foreign_id = $1 and folder_parent_id = $2`,
      [moved, shared],
    )
  ).rows
  console.log(
    `move a folder holding ${MOVED_RESOURCES} resources into a folder shared with ${GROUP_MEMBERS} users, ${MOVES} runs: p50 ${percentile(into, 0.5).toFixed(1)} ms, max ${Math.max(...into).toFixed(1)} ms (target < 1,000 ms); back to the root p50 ${percentile(out, 0.5).toFixed(1)} ms; ${placed} trees hold it in the shared folder`,
  )
} finally {
  await stopProcess(server)
  await db.end()
  bench.cleanup()
}
