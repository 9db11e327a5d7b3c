// The OpenAPI document generated from the route declarations is valid OpenAPI 3.1.0.

import { Validator } from '@seriousme/openapi-schema-validator'
import test from 'ava'
import { buildOpenApi } from '../../api/openapi.ts'
import { assemblePlugins } from '../../api/plugin-loader.ts'
import { plugins } from '../../plugins/index.ts'

test('the document validates as OpenAPI 3.1.0 with version 5.0.0 and lists every route', async (t) => {
  const document = buildOpenApi(assemblePlugins(plugins))
  const validator = new Validator()
  const result = await validator.validate(document as never)
  t.deepEqual(result.errors, undefined)
  t.true(result.valid)
  t.is(validator.version, '3.1')
  t.is(document.info.version, '5.0.0')
  for (const path of [
    '/settings.json',
    '/roles.json',
    '/healthcheck/status.json',
    '/healthcheck.json',
    '/auth/verify.json',
  ])
    t.truthy(document.paths[path]?.get, path)
  const roles = document.paths['/roles.json'].get as {
    security: unknown[]
    responses: Record<string, unknown>
  }
  t.deepEqual(Object.keys(roles.responses), ['200', '400', '401'])
  t.deepEqual(
    (document.paths['/healthcheck/status.json'].get as { security: unknown[] }).security,
    [],
  )
})
