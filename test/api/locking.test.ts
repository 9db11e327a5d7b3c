// One way to lock: plugins lock rows through `lockRows`/`lockInOrder` (api/db/transaction.ts), in
// one global order, and never take PostgreSQL advisory locks, whose keys no table order covers.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'

const root = fileURLToPath(new URL('../..', import.meta.url))

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return path.endsWith('.ts') ? [path] : []
  })

/** Calls of PostgreSQL's advisory lock functions (session or transaction, waiting or not). */
const advisoryCalls = (text: string) =>
  [...text.matchAll(/\bpg_(?:try_)?advisory_\w*/gi)].map((m) => m[0])

test('no plugin takes a PostgreSQL advisory lock', (t) => {
  const found = sources(join(root, 'plugins')).flatMap((file) =>
    advisoryCalls(readFileSync(file, 'utf8')).map((call) => `${relative(root, file)}: ${call}`),
  )
  t.deepEqual(found, [], 'lock rows with lockRows or lockInOrder from api/db/transaction.ts')
})

// Migrations run before the tables they create exist, in processes that may start together:
// no row can stand for them, so `migrate` (api/orm.ts) alone holds a session advisory lock.
test('the core takes an advisory lock only around migrations', (t) => {
  const found = sources(join(root, 'api'))
    .filter((file) => relative(root, file) !== join('api', 'orm.ts'))
    .flatMap((file) =>
      advisoryCalls(readFileSync(file, 'utf8')).map((call) => `${relative(root, file)}: ${call}`),
    )
  t.deepEqual(found, [])
})

test('the check sees an advisory lock however it is called', (t) => {
  t.deepEqual(
    advisoryCalls(
      "selectSql(em, 'select pg_advisory_xact_lock(:k)'); knex.raw('SELECT PG_TRY_ADVISORY_LOCK(1)')",
    ),
    ['pg_advisory_xact_lock', 'PG_TRY_ADVISORY_LOCK'],
  )
  t.deepEqual(advisoryCalls("lockRows(em, 'tags', ids) // an advisory note"), [])
})
