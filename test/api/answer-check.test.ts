// Outside production every answer is held to its route's response schema: a field the schema
// does not declare, or a value of the wrong type, is a server error in tests (so a handler and
// its schema cannot drift apart) and costs nothing in production.
import test from 'ava'
import { z } from 'zod'
import { JsonRows } from '../../api/envelope.ts'
import { AnswerMismatch, checkAnswer } from '../../api/http/answer-check.ts'
import { definePlugin, defineRoute, type Route } from '../../api/plugin.ts'
import { plugins } from '../../plugins/index.ts'
import { startTestApi, testAuthPlugin } from '../helpers/api.ts'

const schema = z.object({ id: z.string(), name: z.string().nullable() })
const route = { method: 'GET', path: '/probe.json' } as Route

test('an answer that matches its schema passes, as JSON the client would read', (t) => {
  t.notThrows(() => checkAnswer(route, schema, { id: 'a', name: null }))
  // undefined fields are not sent, so they are not there to be checked.
  t.notThrows(() => checkAnswer(route, schema, { id: 'a', name: 'x', gone: undefined }))
  t.notThrows(() => checkAnswer(route, z.array(schema), new JsonRows(['{"id":"a","name":"b"}'])))
})

test('an undeclared field, a wrong type and PostgreSQL-built rows are all caught', (t) => {
  t.throws(() => checkAnswer(route, schema, { id: 'a', name: null, password: 'x' }), {
    instanceOf: AnswerMismatch,
    message: /does not declare: body\.password/,
  })
  t.throws(() => checkAnswer(route, schema, { id: 1, name: null }), {
    instanceOf: AnswerMismatch,
    message: /outside its response schema: body\.id/,
  })
  t.throws(
    () => checkAnswer(route, z.array(schema), new JsonRows(['{"id":"a","name":"b","token":"t"}'])),
    { message: /body\[0\]\.token/ },
  )
})

test('a route answering outside its schema fails in tests, and production sends it unchecked', async (t) => {
  const leaky = definePlugin({
    name: 'leaky',
    routes: [
      defineRoute({
        method: 'GET',
        path: '/leaky.json',
        action: 'Leaky.view',
        summary: 'leaky',
        auth: 'user',
        permission: 'none',
        response: schema,
        handler: () => ({ id: 'a', name: null, secret: 'not declared' }),
      }),
    ],
  })
  const api = await startTestApi(t, { plugins: [...plugins, testAuthPlugin, leaky] })
  const checked = await api.request('/leaky.json', { role: 'user' })
  t.is(checked.status, 500)
  t.false(checked.text.includes('not declared'))
  const before = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  try {
    const unchecked = await api.request('/leaky.json', { role: 'user' })
    t.is(unchecked.status, 200)
    t.is(unchecked.json.body.secret, 'not declared')
  } finally {
    if (before === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = before
  }
})
