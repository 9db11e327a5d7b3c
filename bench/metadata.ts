// Benchmark of encrypted metadata on a real `api start` process over loopback: a user who can
// read N v5 passwords (metadata encrypted to the organisation's metadata key) lists them with
// the extension's sync contains, against another user with N v4 passwords. Data is written with
// SQL; the metadata are real OpenPGP messages (the server never decrypts them).
// Usage: node bin/run.js bench/metadata.ts [--resources 10000] [--runs 20]
import { parseArgs } from 'node:util'
import * as openpgp from 'openpgp'
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
  },
})
const RESOURCES = Number(values.resources)
const RUNS = Number(values.runs)
const V5_DEFAULT = 'dd1f723d-0d1e-513f-8218-4055dc0530d0'
const PASSWORD_AND_DESCRIPTION = 'a28a04cd-6f53-518a-967c-9963bf9cec51'

const bench = await prepareBenchServer('bench_metadata')
console.log('seeding…')
const {
  users: [v4Reader, v5Reader],
  db,
} = await setUpUsers(bench, ['v4reader', 'v5reader'])

const { publicKey } = await openpgp.generateKey({
  type: 'ecc',
  curve: 'curve25519Legacy',
  userIDs: [{ name: 'Metadata', email: 'metadata@keyward.test' }],
  format: 'object',
})
const [{ id: keyId }] = (
  await db.query(
    `insert into metadata_keys (id, fingerprint, armored_key, created_by, modified_by)
     values (gen_random_uuid(), $1, $2, $3, $3) returning id`,
    [publicKey.getFingerprint().toUpperCase(), publicKey.armor(), v5Reader.id],
  )
).rows
// 100 distinct messages of the extension's shape, cycled over the resources.
const messages: string[] = []
for (let i = 0; i < 100; i++)
  messages.push(
    (await openpgp.encrypt({
      message: await openpgp.createMessage({
        text: JSON.stringify({
          object_type: 'PASSBOLT_RESOURCE_METADATA',
          resource_type_id: V5_DEFAULT,
          name: `resource ${i}`,
          username: `user${i}@example.com`,
          uris: [`https://example.com/${i}`],
          description: null,
          custom_fields: [],
          icon: { type: 'keepass-icon-set', value: i % 60 },
        }),
      }),
      encryptionKeys: publicKey,
    })) as string,
  )
await db.query(
  `insert into resources (id, name, username, uri, resource_type_id, created_by, modified_by)
   select gen_random_uuid(), 'resource ' || lpad(i::text, 6, '0'), 'user' || i, 'https://example.com/' || i,
     $1, $2, $2
   from generate_series(1, ${RESOURCES}) i`,
  [PASSWORD_AND_DESCRIPTION, v4Reader.id],
)
await db.query(
  `insert into resources (id, metadata, metadata_key_id, metadata_key_type, resource_type_id, created_by, modified_by)
   select gen_random_uuid(), ($1::text[])[1 + i % 100], $2, 'shared_key', $3, $4, $4
   from generate_series(1, ${RESOURCES}) i`,
  [messages, keyId, V5_DEFAULT, v5Reader.id],
)
for (const statement of [
  `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
     select gen_random_uuid(), 'Resource', id, 'User', created_by, 15 from resources`,
  `insert into folders_relations (id, foreign_model, foreign_id, user_id)
     select gen_random_uuid(), 'Resource', id, created_by from resources`,
  'analyze',
])
  await db.query(statement)

const server = await startApiProcess(bench.env)
const SYNC = '/resources.json?contain[permission]=1&contain[favorite]=1&contain[tag]=1'
try {
  for (const [label, reader] of [
    ['v4', v4Reader],
    ['v5', v5Reader],
  ] as const) {
    const client = new TestClient(bench.base)
    await gpgAuthLogin(client, reader.key)
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const times: number[] = []
    let cpu = 0
    let bytes = 0
    let count = 0
    for (let i = 0; i < RUNS + 2; i++) {
      const cpuBefore = cpuMs(server.pid!)
      const started = performance.now()
      const response = await fetch(`${bench.base}${SYNC}`, { headers: { cookie } })
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
    console.log(
      `${label}: GET ${SYNC}: ${count} resources, ${(bytes / 2 ** 20).toFixed(1)} MiB of JSON, ${RUNS} runs: p50 ${percentile(times, 0.5).toFixed(0)} ms, p95 ${percentile(times, 0.95).toFixed(0)} ms; server CPU ${(cpu / RUNS).toFixed(0)} ms a request`,
    )
  }
} finally {
  await stopProcess(server)
  await db.end()
  bench.cleanup()
}
