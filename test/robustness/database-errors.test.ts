// An unexpected database error is logged with the statement that failed (placeholders, never
// the values bound to it) and where it was sent from; the client gets the bare 500 envelope.

import { defineEntity } from '@mikro-orm/core'
import test from 'ava'
import { executeStatement } from '../../api/orm.ts'
import { definePlugin, defineRoute } from '../../api/plugin.ts'
import { plugins } from '../../plugins/index.ts'
import { startTestApi, testAuthPlugin } from '../helpers/api.ts'
import { query } from '../helpers/database.ts'

const SECRET = 'token-5b0e1c2d-never-logged'

// The table made below has no `stale_column`: the ORM writes it anyway, as it wrote an inherited
// property once.
const ProbeRow = defineEntity({
  name: 'ProbeRow',
  tableName: 'probe_rows',
  properties: (p) => ({
    id: p.uuid().primary(),
    label: p.string(),
    staleColumn: p.string(),
  }),
})

const probe = definePlugin({
  name: 'probe',
  entities: [ProbeRow],
  routes: [
    defineRoute({
      method: 'POST',
      path: '/probe/flush.json',
      action: 'Probe.flush',
      summary: 'an entity insert naming a column the table lacks',
      auth: 'public',
      permission: 'none',
      csrf: false,
      transaction: true,
      handler: async ({ em }) => {
        em.create(ProbeRow, { id: crypto.randomUUID(), label: SECRET, staleColumn: SECRET })
        await em.flush()
        return null
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/probe/builder.json',
      action: 'Probe.builder',
      summary: 'a query-builder update naming a column the table lacks',
      auth: 'public',
      permission: 'none',
      csrf: false,
      handler: async ({ em }) => {
        await executeStatement(em, (knex) =>
          knex('probe_rows').where('label', SECRET).update({ missing_column: SECRET }),
        )
        return null
      },
    }),
  ],
})

test('the failing statement and its frames are logged, without its values', async (t) => {
  const api = await startTestApi(t, { plugins: [...plugins, testAuthPlugin, probe] })
  await query(api.app.database.url, 'create table probe_rows (id uuid primary key, label text)')
  for (const [path, statement] of [
    ['/probe/flush.json', /insert into "probe_rows" .*"stale_column"/],
    ['/probe/builder.json', /update "probe_rows" set "missing_column" = \? where "label" = \?/],
  ] as const) {
    const answer = await api.request(path, { method: 'POST' })
    t.is(answer.status, 500, path)
    t.is(answer.json.header.message, 'An Internal Error Has Occurred.')
    t.notRegex(answer.text, /probe_rows|column|select|insert|update|\bat /i, path)
    const line = api.logs.find(
      (entry) =>
        entry.msg === 'unexpected error' &&
        JSON.stringify(entry).includes(
          path === '/probe/flush.json' ? 'stale_column' : 'missing_column',
        ),
    ) as { err: Record<string, string> } | undefined
    t.truthy(line, `${path}: ${JSON.stringify(api.logs.filter((entry) => entry.level === 50))}`)
    t.is(line?.err.type, 'InvalidFieldNameException')
    t.is(line?.err.code, '42703')
    t.regex(line?.err.statement ?? '', statement)
    // The frames reach this file's handler, through the ORM.
    t.regex(line?.err.sentFrom ?? '', /database-errors\.test\.ts/)
    t.regex(line?.err.stack ?? '', /^\s+at /)
  }
  t.false(JSON.stringify(api.logs).includes(SECRET))
})
