// Benchmark of tags on a real `api start` process over loopback: a user who can read 10,000
// resources, each with one of 20 shared tags, one of 50 personal tags of theirs and one of another
// user's, lists their tags and syncs the workspace as the extension does (`contain[permission]`,
// `contain[favorite]`, `contain[tag]`; the same list without tags for comparison), then replaces
// the tags on one resource. Wall time and the server's CPU time per request are reported: the
// second depends less on what else the machine runs.
// Usage: node bin/run.js bench/tags.ts [--resources 10000] [--runs 20] [--profile DIR]
import { parseArgs } from 'node:util'
import { gpgAuthLogin, TestClient } from '../test/helpers/client.ts'
import {
  cpuMs,
  percentile,
  prepareBenchServer,
  setUpUsers,
  startApiProcess,
  stopProcess,
} from './api-process.ts'

const { values } = parseArgs({
  options: {
    resources: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '20' },
    /** Write a CPU profile of the API server into this folder. */
    profile: { type: 'string' },
  },
})
const RESOURCES = Number(values.resources)
const RUNS = Number(values.runs)
const bench = await prepareBenchServer('bench_tags')
console.log('seeding…')
const {
  users: [reader, owner],
  db,
} = await setUpUsers(bench, ['reader', 'owner'])

for (const statement of [
  `insert into resources (id, name, username, uri, resource_type_id, created_by, modified_by)
     select gen_random_uuid(), 'resource ' || lpad(i::text, 6, '0'), 'user' || i, 'https://example.com/' || i,
       'a28a04cd-6f53-518a-967c-9963bf9cec51', '${owner.id}', '${owner.id}'
     from generate_series(1, ${RESOURCES}) i`,
  `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
     select gen_random_uuid(), 'Resource', r.id, 'User', '${owner.id}', 15 from resources r`,
  `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
     select gen_random_uuid(), 'Resource', r.id, 'User', '${reader.id}', 1 from resources r`,
  `insert into tags (id, slug, is_shared)
     select gen_random_uuid(), '#shared' || i, true from generate_series(1, 20) i
     union all select gen_random_uuid(), 'mine' || i, false from generate_series(1, 50) i
     union all select gen_random_uuid(), 'theirs' || i, false from generate_series(1, 50) i`,
  `insert into resources_tags (id, resource_id, tag_id, user_id)
     select gen_random_uuid(), r.id, t.id, case when t.is_shared then null
       when t.slug like 'mine%' then '${reader.id}'::uuid else '${owner.id}'::uuid end
     from (select id, row_number() over (order by id) n from resources) r
     join (select id, slug, is_shared, row_number() over (partition by left(slug, 2) order by slug) n
           from tags) t
       on (t.is_shared and t.n = r.n % 20 + 1)
       or (t.slug like 'mine%' and t.n = r.n % 50 + 1)
       or (t.slug like 'theirs%' and t.n = r.n % 50 + 1)`,
  'analyze',
])
  await db.query(statement)

const server = await startApiProcess(bench.env, { profileDir: values.profile })
const report = (label: string, times: number[], cpu: number) =>
  console.log(
    `${label}: p50 ${percentile(times, 0.5).toFixed(0)} ms, p95 ${percentile(times, 0.95).toFixed(0)} ms, server CPU ${(cpu / times.length).toFixed(0)} ms a request (${times.length} runs)`,
  )

try {
  const client = new TestClient(bench.base)
  await gpgAuthLogin(client, reader.key)
  const cookie = () => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  const time = async (label: string, url: string, check: (body: unknown[]) => void) => {
    const times: number[] = []
    let cpu = 0
    for (let i = 0; i < RUNS + 2; i++) {
      const cpuBefore = cpuMs(server.pid!)
      const started = performance.now()
      const response = await fetch(`${bench.base}${url}`, { headers: { cookie: cookie() } })
      const text = await response.text()
      const elapsed = performance.now() - started
      if (response.status !== 200) throw new Error(`${label}: ${response.status} ${text}`)
      if (i === 0) check(JSON.parse(text).body)
      if (i < 2) continue
      times.push(elapsed)
      cpu += cpuMs(server.pid!) - cpuBefore
    }
    report(label, times, cpu)
  }
  await time('GET /tags.json (70 tags)', '/tags.json', (body) => {
    if (body.length !== 70) throw new Error(`expected 70 tags, got ${body.length}`)
  })
  const sync = '/resources.json?contain[permission]=1&contain[favorite]=1'
  await time(`GET ${sync}`, sync, (body) => {
    if (body.length !== RESOURCES) throw new Error(`expected ${RESOURCES}, got ${body.length}`)
  })
  await time(`GET ${sync}&contain[tag]=1`, `${sync}&contain[tag]=1`, (body) => {
    const tags = (body[0] as { tags: unknown[] }).tags
    if (tags.length !== 2) throw new Error(`expected 2 tags on a resource, got ${tags.length}`)
  })
  // The reader may only read: they keep the resource's shared tag and change their own.
  const [{ id, shared }] = (
    await db.query(
      `select rt.resource_id as id, t.slug as shared from resources_tags rt
       join tags t on t.id = rt.tag_id where t.is_shared limit 1`,
    )
  ).rows
  const times: number[] = []
  let cpu = 0
  for (let i = 0; i < RUNS; i++) {
    const cpuBefore = cpuMs(server.pid!)
    const started = performance.now()
    const response = await client.json(`/tags/${id}.json`, 'POST', {
      tags: [shared, `mine${(i % 50) + 1}`, `new${i}`],
    })
    times.push(performance.now() - started)
    cpu += cpuMs(server.pid!) - cpuBefore
    if (response.status !== 200) throw new Error(`replace: ${response.status} ${response.text}`)
  }
  report('POST /tags/{id}.json (3 tags, one new, one removed)', times, cpu)
} finally {
  await stopProcess(server)
  await db.end()
  bench.cleanup()
}
