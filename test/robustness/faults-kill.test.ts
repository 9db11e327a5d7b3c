// Fault injection, the process: `api start` killed with SIGKILL while clients write. Every write
// it acknowledged is there after a restart, whole (the folder with its permission and its place
// in the owner's tree), and the restarted server serves.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { bootApp, createLogger, shutdownApp } from '../../api/app.ts'
import { loadConfig } from '../../api/config.ts'
import { plugins } from '../../plugins/index.ts'
import { FIXTURE_KEYS_ENV, type TestApi } from '../helpers/api.ts'
import { gpgAuthLogin, TestClient } from '../helpers/client.ts'
import { createTestDatabase, query } from '../helpers/database.ts'
import { freePort } from '../helpers/extension.ts'
import { createActiveUser } from '../helpers/users.ts'

const BIN = fileURLToPath(new URL('../../bin/api.js', import.meta.url))

test('SIGKILL under write load: every acknowledged write survives the restart', async (t) => {
  t.timeout(300_000)
  const databaseUrl = await createTestDatabase(t)
  const dataDir = mkdtempSync(join(tmpdir(), 'keyward-kill-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const port = await freePort()
  const env = {
    ...process.env,
    ...FIXTURE_KEYS_ENV,
    DATABASE_URL: databaseUrl,
    KEYWARD_DATA_DIR: dataDir,
    KEYWARD_LOG_LEVEL: 'warn',
  }
  const url = `http://127.0.0.1:${port}`
  const children: ChildProcess[] = []
  t.teardown(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  })
  const start = async () => {
    const child = spawn(process.execPath, [BIN, 'start', '--port', String(port)], {
      env,
      stdio: 'ignore',
    })
    children.push(child)
    const deadline = Date.now() + 60_000
    for (;;) {
      const ready = await fetch(`${url}/healthcheck/status.json`).then(
        (r) => r.ok,
        () => false,
      )
      if (ready) return child
      if (child.exitCode !== null) throw new Error(`api start exited with ${child.exitCode}`)
      if (Date.now() > deadline) throw new Error('api start did not become ready')
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  const first = await start()
  // The account is made beside the server, through the real setup service.
  const config = loadConfig({
    env: { ...FIXTURE_KEYS_ENV, DATABASE_URL: databaseUrl, KEYWARD_DATA_DIR: dataDir },
  })
  const side = await bootApp({ config, plugins, logger: createLogger({ logLevel: 'warn' }) })
  const ada = await createActiveUser({ app: side } as TestApi, 'ada@keyward.test')
  await shutdownApp(side)
  const client = new TestClient(url)
  const { stage2 } = await gpgAuthLogin(client, ada)
  t.is(stage2.status, 200)
  await client.fetch('/users/csrf-token.json')

  const acknowledged: string[] = []
  let refused = 0
  let killed = false
  const worker = async (n: number) => {
    for (let i = 0; ; i++) {
      const name = `w${n}-${i}`
      try {
        const answer = await client.json('/folders.json', 'POST', { name })
        if (answer.status === 200) acknowledged.push(answer.json.body.id)
      } catch {
        refused++
        if (killed) return
      }
    }
  }
  const workers = [0, 1, 2, 3].map(worker)
  await new Promise((resolve) => setTimeout(resolve, 2_000))
  killed = true
  first.kill('SIGKILL')
  await Promise.all(workers)
  t.true(acknowledged.length > 0, 'writes were acknowledged before the kill')

  await start()
  const sql = (text: string, values: unknown[] = []) => query(databaseUrl, text, values)
  const missing = await sql(
    `select a.fid from unnest($1::uuid[]) as a(fid)
      where not exists (select 1 from folders f where f.id = a.fid)
         or not exists (select 1 from permissions p where p.aco_foreign_key = a.fid and p.aro_foreign_key = $2 and p.type = 15)
         or not exists (select 1 from folders_relations r where r.foreign_id = a.fid and r.user_id = $2)`,
    [acknowledged, ada.id],
  )
  t.deepEqual(
    missing,
    [],
    `${missing.length} of ${acknowledged.length} acknowledged writes lost or partial`,
  )
  // Whatever was in flight at the kill is all there or not at all.
  const partial = await sql(
    `select f.id from folders f
      where not exists (select 1 from permissions p where p.aco_foreign_key = f.id)
         or not exists (select 1 from folders_relations r where r.foreign_id = f.id)`,
  )
  t.deepEqual(partial, [])
  const again = new TestClient(url)
  t.is((await gpgAuthLogin(again, ada)).stage2.status, 200)
  t.log(`${acknowledged.length} writes acknowledged, ${refused} refused after the kill`)
})
