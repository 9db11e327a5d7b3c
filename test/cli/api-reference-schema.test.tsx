// The API reference's schema trees read like a person describes a schema: types, nullability,
// limits in words, allowed values, and `oneOf` variants (v4 and v5 resources) as open branches.
import test from 'ava'
import { renderToStaticMarkup } from 'react-dom/server'
import type { JsonSchema } from '../../model/openapi.ts'
import { curlCommand } from '../../templates/api/curl.ts'
import { constraintsOf, typeLabel, unwrapNullable } from '../../templates/api/describe-schema.ts'
import { SchemaTree } from '../../templates/api/SchemaTree.tsx'

test('limits, formats and types in words', (t) => {
  t.deepEqual(constraintsOf({ type: 'string', maxLength: 255 }), ['at most 255 characters'])
  t.deepEqual(constraintsOf({ type: 'string', minLength: 1, maxLength: 1 }), [
    'exactly 1 character',
  ])
  t.deepEqual(constraintsOf({ type: 'string', format: 'uuid' }), ['uuid'])
  t.deepEqual(constraintsOf({ type: 'integer', minimum: 1 }), ['≥ 1'])
  t.deepEqual(constraintsOf({ type: 'array', minItems: 1, maxItems: 1 }), ['exactly 1 item'])
  t.is(typeLabel({ type: 'array', items: { type: 'object', properties: {} } }), 'list of objects')
  t.is(typeLabel({ type: 'array', items: { type: 'string' } }), 'list of strings')
  t.deepEqual(unwrapNullable({ anyOf: [{ type: 'string', maxLength: 9 }, { type: 'null' }] }), {
    schema: { type: 'string', maxLength: 9, description: undefined },
    nullable: true,
  })
  t.deepEqual(unwrapNullable({ type: ['boolean', 'null'] }), {
    schema: { type: 'boolean' },
    nullable: true,
  })
})

const resource: JsonSchema = {
  oneOf: [
    {
      title: 'v4 resource',
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', maxLength: 255 },
        username: { anyOf: [{ type: 'string', maxLength: 255 }, { type: 'null' }] },
      },
    },
    {
      title: 'v5 resource',
      type: 'object',
      required: ['metadata'],
      properties: {
        metadata: { type: 'string', description: 'Encrypted metadata.' },
        metadata_key_type: { type: 'string', enum: ['user_key', 'shared_key'] },
      },
    },
  ],
}

test('oneOf variants are open branches with their own fields', (t) => {
  const html = renderToStaticMarkup(<SchemaTree schema={resource} />)
  t.is(
    html,
    '<div class="schema-tree"><p class="schema__head schema__root"> <span class="schema__type">one of</span></p>' +
      '<ol class="schema__variants">' +
      '<li><details class="schema__nested" open=""><summary class="schema__head">v4 resource <span class="schema__type">object</span></summary>' +
      '<ul class="schema"><li class="schema__property"><div class="schema__head"><code class="schema__name">name</code> <span class="schema__type">string</span><span class="schema__flag schema__flag--required">required</span><span class="schema__limits">at most 255 characters</span></div></li>' +
      '<li class="schema__property"><div class="schema__head"><code class="schema__name">username</code> <span class="schema__type">string</span><span class="schema__flag">nullable</span><span class="schema__limits">at most 255 characters</span></div></li></ul></details></li>' +
      '<li><details class="schema__nested" open=""><summary class="schema__head">v5 resource <span class="schema__type">object</span></summary>' +
      '<ul class="schema"><li class="schema__property"><div class="schema__head"><code class="schema__name">metadata</code> <span class="schema__type">string</span><span class="schema__flag schema__flag--required">required</span></div><p class="schema__description">Encrypted metadata.</p></li>' +
      '<li class="schema__property"><div class="schema__head"><code class="schema__name">metadata_key_type</code> <span class="schema__type">string</span></div><p class="schema__values">One of: <span><code>&quot;user_key&quot;</code></span><span>, <code>&quot;shared_key&quot;</code></span></p></li></ul></details></li>' +
      '</ol></div>',
  )
})

test('curl: example path parameters, the credentials the security asks for, the example body', (t) => {
  t.is(
    curlCommand('put', '/resources/{id}.json', {
      security: [{ gpgAuth: [], csrfToken: [] }, { jwt: [] }],
      parameters: [{ name: 'id', in: 'path', example: '8e3874ae-4b40-590b-968a-418f704b9d9a' }],
      requestBody: { content: { 'application/json': { example: { name: "Ada's bank" } } } },
    }),
    [
      'curl -sS -X PUT "$KEYWARD_URL/resources/8e3874ae-4b40-590b-968a-418f704b9d9a.json"',
      '-H "Authorization: Bearer $KEYWARD_TOKEN"',
      '-H "Content-Type: application/json"',
      `--data '{"name":"Ada'\\''s bank"}'`,
    ].join(' \\\n  '),
  )
  t.is(
    curlCommand('post', '/auth/logout.json', { security: [{ gpgAuth: [], csrfToken: [] }] }),
    [
      'curl -sS -X POST "$KEYWARD_URL/auth/logout.json"',
      '-b "passbolt_session=$KEYWARD_SESSION; csrfToken=$KEYWARD_CSRF"',
      '-H "X-CSRF-Token: $KEYWARD_CSRF"',
    ].join(' \\\n  '),
  )
  t.is(
    curlCommand('get', '/settings.json', { security: [] }),
    'curl -sS "$KEYWARD_URL/settings.json"',
  )
})
