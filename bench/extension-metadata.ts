// The official extension's time from submitting the passphrase to its grid listing 1,000
// passwords: v4 (clear metadata), v5 whose metadata the extension must decrypt one by one with
// the metadata key (no session keys cached on the server), and v5 again once the extension has
// stored its session keys (one message to decrypt, then symmetric decryption). One administrator
// set up through the extension in a new (v5) organisation; the passwords are written with SQL,
// their metadata real OpenPGP messages to the organisation's metadata key; each measurement
// hides the other set (`deleted`) so the grid lists exactly 1,000. Runs interleave the three
// cases so load changes hit them alike. Needs the cached extension build (it never builds it).
// Usage: node bin/run.js bench/extension-metadata.ts [--passwords 1000] [--runs 3]
import { randomUUID } from 'node:crypto'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import type { ExecutionContext } from 'ava'
import * as openpgp from 'openpgp'
import {
  completeSetup,
  createUserWithCli,
  signOut,
  submitPassphrase,
} from '../test/extension/accounts.ts'
import { startServerForExtension } from '../test/extension/server.ts'
import { rowOf, sql } from '../test/extension/workspace.ts'
import type { TestApi } from '../test/helpers/api.ts'
import { query } from '../test/helpers/database.ts'
import {
  type ExtensionBrowser,
  launchExtension,
  linkFromOutbox,
} from '../test/helpers/extension.ts'
import { extensionDir, isExtensionBuilt } from '../test/helpers/extension-build.ts'
import { PASSWORD_AND_DESCRIPTION, V5_DEFAULT } from '../test/helpers/vault.ts'

const { values } = parseArgs({
  options: {
    passwords: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '3' },
  },
})
const COUNT = Number(values.passwords)
const RUNS = Number(values.runs)
const PASSPHRASE = 'correct horse battery staple keyward'
const ADMIN = { username: 'ada@keyward.test', firstName: 'Ada', lastName: 'Lovelace' }

if (!isExtensionBuilt()) {
  console.error('the official extension is not built: run the extension test once first')
  process.exit(1)
}

// The test helpers take ava's context for their teardowns; a script runs them at its end.
const teardowns: (() => unknown)[] = []
const t = {
  teardown: (fn: () => unknown) => teardowns.push(fn),
  log: (...parts: unknown[]) => console.log(...parts),
} as unknown as ExecutionContext

type Case = 'v4' | 'v5-no-session-keys' | 'v5-session-keys'

/** Writes `COUNT` passwords of one version owned by the administrator, secrets included. */
const seed = async (
  api: TestApi,
  version: 'v4' | 'v5',
  owner: { id: string; key: openpgp.Key },
) => {
  const [metadataKey] = await sql<{ id: string; armored_key: string }>(
    api,
    'select id, armored_key from metadata_keys where deleted is null and expired is null',
  )
  const shared = await openpgp.readKey({ armoredKey: metadataKey.armored_key })
  const encrypt = async (text: string, key: openpgp.Key) =>
    (await openpgp.encrypt({
      message: await openpgp.createMessage({ text }),
      encryptionKeys: key,
    })) as string
  const typeId = version === 'v4' ? PASSWORD_AND_DESCRIPTION : V5_DEFAULT
  const rows = await Promise.all(
    Array.from({ length: COUNT }, async (_, i) => {
      const name = `Bench ${version} ${String(i).padStart(4, '0')}`
      const uri = `https://${version}-${i}.example.com`
      return {
        id: randomUUID(),
        name,
        uri,
        metadata:
          version === 'v5'
            ? await encrypt(
                JSON.stringify({
                  object_type: 'PASSBOLT_RESOURCE_METADATA',
                  resource_type_id: typeId,
                  name,
                  username: 'ops',
                  uris: [uri],
                  description: null,
                }),
                shared,
              )
            : null,
        secret: await encrypt(
          JSON.stringify({ object_type: 'PASSBOLT_SECRET_DATA', password: `pw-${i}` }),
          owner.key,
        ),
      }
    }),
  )
  const v5 = version === 'v5'
  // Arrays go to PostgreSQL as arrays ($n), which the ORM's `?` bindings would spread.
  const db = (text: string, values: unknown[]) => query(api.app.database.url, text, values)
  await db(
    `insert into resources (id, name, username, uri, metadata, metadata_key_id, metadata_key_type,
       resource_type_id, created_by, modified_by)
     select r.id, r.name, r.username, r.uri, r.metadata, $1, $2, $3, $4, $5
     from unnest($6::uuid[], $7::text[], $8::text[], $9::text[], $10::text[]) as r(id, name, username, uri, metadata)`,
    [
      v5 ? metadataKey.id : null,
      v5 ? 'shared_key' : null,
      typeId,
      owner.id,
      owner.id,
      rows.map((row) => row.id),
      rows.map((row) => (v5 ? null : row.name)),
      rows.map(() => (v5 ? null : 'ops')),
      rows.map((row) => (v5 ? null : row.uri)),
      rows.map((row) => row.metadata),
    ],
  )
  await db(
    `insert into permissions (id, aco, aco_foreign_key, aro, aro_foreign_key, type)
     select gen_random_uuid(), 'Resource', r, 'User', $1, 15 from unnest($2::uuid[]) as r`,
    [owner.id, rows.map((row) => row.id)],
  )
  await db(
    `insert into secrets (id, resource_id, user_id, data)
     select gen_random_uuid(), s.resource, $1, s.data from unnest($2::uuid[], $3::text[]) as s(resource, data)`,
    [owner.id, rows.map((row) => row.id), rows.map((row) => row.secret)],
  )
  await db(
    `insert into folders_relations (id, foreign_model, foreign_id, user_id)
     select gen_random_uuid(), 'Resource', r, $1 from unnest($2::uuid[]) as r`,
    [owner.id, rows.map((row) => row.id)],
  )
}

/** The slice of the extension's `chrome` API read here (it runs in the extension's worker). */
declare const chrome: {
  storage: { local: { get(key: string): Promise<Record<string, unknown[] | undefined>> } }
}

/** How many passwords the extension keeps for the signed-in user (what its grid lists). */
const listed = async (browser: ExtensionBrowser) =>
  (await browser.worker()).evaluate(
    async () => (await chrome.storage.local.get('resources')).resources?.length ?? 0,
  )

const sessionKeyRows = async (api: TestApi, userId: string) =>
  (
    await sql<{ count: number }>(
      api,
      'select count(*)::int as count from metadata_session_keys where user_id = ?',
      [userId],
    )
  )[0].count

/** One sign-in, from the passphrase submitted to the grid listing the case's passwords. */
const measure = async (
  api: TestApi,
  admin: ExtensionBrowser,
  domain: string,
  userId: string,
  which: Case,
) => {
  const version = which === 'v4' ? 'v4' : 'v5'
  await signOut(admin, domain)
  await sql(api, `update resources set deleted = (resource_type_id <> ?)`, [
    version === 'v4' ? PASSWORD_AND_DESCRIPTION : V5_DEFAULT,
  ])
  if (which === 'v5-no-session-keys')
    await sql(api, 'delete from metadata_session_keys where user_id = ?', [userId])
  if (which === 'v5-session-keys' && (await sessionKeyRows(api, userId)) === 0)
    throw new Error('the extension stored no session keys after the previous sign-in')
  const logsFrom = api.logs.length
  const submittedAt = await submitPassphrase(admin, domain, PASSPHRASE)
  await rowOf(admin.iframe('app'), `Bench ${version} `).waitFor({ timeout: 600_000 })
  const ms = Date.now() - submittedAt
  const count = await listed(admin)
  if (count !== COUNT) throw new Error(`${which}: the extension lists ${count}, not ${COUNT}`)
  const requests = api.logs.slice(logsFrom).filter((line) => line.msg === 'request')
  const listMs = Math.max(
    0,
    ...requests
      .filter((line) => line.method === 'GET' && line.path === '/resources.json')
      .map((line) => Number(line.ms)),
  )
  return { ms, listMs, load: loadavg()[0] }
}

try {
  const { api, domain } = await startServerForExtension(t)
  console.log('setting up the administrator in the extension…')
  await createUserWithCli(api, ADMIN, true)
  const admin = await launchExtension(t, extensionDir(), 'bench-admin')
  await completeSetup(
    admin,
    await linkFromOutbox(api.app.config.dataDir, ADMIN.username, 'install'),
    PASSPHRASE,
  )
  const [owner] = await sql<{ id: string; armored_key: string }>(
    api,
    `select u.id, g.armored_key from users u join gpgkeys g on g.user_id = u.id and not g.deleted
     where u.username = ?`,
    [ADMIN.username],
  )
  const ownerKey = { id: owner.id, key: await openpgp.readKey({ armoredKey: owner.armored_key }) }
  console.log(`seeding ${COUNT} v4 and ${COUNT} v5 passwords…`)
  await seed(api, 'v4', ownerKey)
  await seed(api, 'v5', ownerKey)
  const results: Record<Case, { ms: number; listMs: number; load: number }[]> = {
    v4: [],
    'v5-no-session-keys': [],
    'v5-session-keys': [],
  }
  for (let run = 1; run <= RUNS; run++)
    for (const which of Object.keys(results) as Case[]) {
      if (which === 'v5-session-keys') {
        // The extension saves its session keys after listing; give it the time to.
        const until = Date.now() + 60_000
        while ((await sessionKeyRows(api, owner.id)) === 0 && Date.now() < until)
          await new Promise((resolve) => setTimeout(resolve, 500))
      }
      const result = await measure(api, admin, domain, owner.id, which)
      results[which].push(result)
      console.log(
        `run ${run} ${which}: ${result.ms} ms (GET /resources.json ${result.listMs} ms on the server, load ${result.load.toFixed(1)})`,
      )
    }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]
  const v4 = median(results.v4.map((r) => r.ms))
  console.log(`\n| case | runs (ms) | median | vs v4 |\n|---|---|---|---|`)
  for (const [which, list] of Object.entries(results)) {
    const m = median(list.map((r) => r.ms))
    console.log(
      `| ${which} | ${list.map((r) => r.ms).join(', ')} | ${m} ms | ${(m / v4).toFixed(2)}x |`,
    )
  }
  const loads = Object.values(results).flatMap((list) => list.map((r) => r.load))
  console.log(
    `load average during the runs: ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`,
  )
} finally {
  for (const fn of teardowns.reverse()) await fn()
}
