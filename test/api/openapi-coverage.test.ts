// Every route of the assembled server appears in the OpenAPI document with what a reader needs:
// a summary and a description, its security, each parameter with an example, its body with an
// example the route accepts, and every response it can give with an example envelope.
import test from 'ava'
import { z } from 'zod'
import { buildOpenApi } from '../../api/openapi.ts'
import type { Route } from '../../api/plugin.ts'
import { assemblePlugins } from '../../api/plugin-loader.ts'
import { plugins } from '../../plugins/index.ts'

const assembled = assemblePlugins(plugins)
const document = buildOpenApi(assembled) as unknown as {
  paths: Record<string, Record<string, Operation>>
}
const documented = assembled.flatMap((plugin) =>
  (plugin.routes ?? [])
    .filter((route) => route.openapi !== false)
    .map((route) => ({ plugin: plugin.name, route })),
)

interface Example {
  example?: { header: { code: number; status: string; message: string }; body: unknown }
}
interface Operation {
  summary?: string
  description?: string
  tags: string[]
  security: Record<string, string[]>[]
  parameters: { name: string; in: string; example?: unknown }[]
  requestBody?: { content: { 'application/json': { example?: unknown } } }
  responses: Record<string, { description: string; content: Record<string, Example> }>
}

const issuesOf = (error: z.ZodError) =>
  error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')
const name = (route: Route) => `${route.method} ${route.path}`
const operationOf = (route: Route) => document.paths[route.path]?.[route.method.toLowerCase()]

test('the document holds every route of the assembled server, and nothing else', (t) => {
  t.true(documented.length > 100)
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  )
  t.deepEqual(operations.sort(), documented.map(({ route }) => name(route)).sort())
})

test('every operation has a summary and a description of its own', (t) => {
  const lacking = documented
    .filter(({ route }) => {
      const operation = operationOf(route)
      return (
        !operation?.summary?.trim() ||
        !operation.description?.trim() ||
        operation.description.trim() === operation.summary.trim()
      )
    })
    .map(({ plugin, route }) => `${plugin}: ${name(route)}`)
  t.deepEqual(lacking, [], 'add a `description` to these route declarations')
})

test('security follows the route’s access: none when public, a cookie session (with CSRF on changing calls) or a bearer token otherwise', (t) => {
  for (const { route } of documented) {
    const { security } = operationOf(route)
    if (route.auth === 'public') {
      t.deepEqual(security, [], name(route))
      continue
    }
    const csrf = route.method !== 'GET' && route.csrf !== false
    t.deepEqual(
      security,
      [csrf ? { gpgAuth: [], csrfToken: [] } : { gpgAuth: [] }, { jwt: [] }],
      name(route),
    )
  }
})

test('each path parameter is documented with an example the route accepts', (t) => {
  for (const { route } of documented) {
    const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1])
    const parameters = operationOf(route).parameters.filter((p) => p.in === 'path')
    t.deepEqual(
      parameters.map((p) => p.name),
      names,
      name(route),
    )
    if (!route.params) continue
    const values = Object.fromEntries(parameters.map((p) => [p.name, p.example]))
    const parsed = route.params.safeParse(values)
    t.true(parsed.success, `${name(route)}: ${JSON.stringify(values)}`)
  }
})

test('each request body has an example the route’s own schema accepts', (t) => {
  const refused: string[] = []
  for (const { route } of documented) {
    const body = operationOf(route).requestBody
    if (!route.body) {
      t.is(body, undefined, name(route))
      continue
    }
    const parsed = route.body.safeParse(body?.content['application/json'].example)
    if (!parsed.success) refused.push(`${name(route)}: ${issuesOf(parsed.error)}`)
  }
  t.deepEqual(refused, [], 'give these fields an example: `.meta({ examples: [...] })`')
})

test('every response the route can give is documented with an example envelope', (t) => {
  for (const { route } of documented) {
    const { responses } = operationOf(route)
    const expected = ['200', '400']
    if (route.auth !== 'public') expected.push('401')
    if (route.auth === 'admin') expected.push('403')
    if (route.permission !== 'none') {
      expected.push(...route.permission.refusals.map(String))
      for (const status of route.permission.refusals)
        t.truthy(
          route.permission.refusalMessages?.[status],
          `${name(route)}: its policy names no message for ${status} (refusalMessages)`,
        )
    }
    // Any changing call in a cookie session without the CSRF token.
    if (route.method !== 'GET' && route.csrf !== false) expected.push('403')
    if (route.throttle) expected.push('429')
    t.deepEqual(Object.keys(responses).sort(), [...new Set(expected)].sort(), name(route))
    for (const [status, response] of Object.entries(responses)) {
      t.truthy(response.description, `${name(route)} ${status}`)
      if (status === '200') continue
      const example = response.content['application/json'].example
      t.is(example?.header.code, Number(status), `${name(route)} ${status}`)
      t.is(example?.header.status, 'error')
      t.truthy(example?.header.message)
      if (status === '400' && route.body)
        t.is(typeof example?.body, 'object', `${name(route)}: the validation tree`)
    }
  }
})

test('every operation declares its response schema (binary answers their media type), with an example it accepts', (t) => {
  const lacking: string[] = []
  const refused: string[] = []
  for (const { route } of documented) {
    const key = `${route.action} ${name(route)}`
    if (route.produces) {
      t.truthy(operationOf(route).responses['200'].content[route.produces], key)
      continue
    }
    const success = operationOf(route).responses['200'].content['application/json']
    if (!route.response) {
      lacking.push(key)
      continue
    }
    const parsed = route.response.safeParse(success.example?.body)
    if (!parsed.success) refused.push(`${key}: ${issuesOf(parsed.error)}`)
  }
  t.deepEqual(refused, [], 'give these fields an example: `.meta({ examples: [...] })`')
  t.deepEqual(lacking, [], 'declare a `response` schema on these routes')
})

type JsonSchema = { [key: string]: unknown }

/** Keys that only describe a schema: a node with nothing else accepts any value. */
const WORDS = new Set(['description', 'example', 'examples', 'default', 'title', 'deprecated'])

/**
 * The places in a request schema that say nothing of the value (any JSON accepted): a node with
 * no type, or an object with neither properties nor a typed `additionalProperties`. A loose
 * object's `additionalProperties: {}` is not one: its fields are typed, the rest passes through.
 */
const untypedLeaves = (node: unknown, at: string): string[] => {
  if (node === true || node === undefined) return [at || '(body)']
  if (typeof node !== 'object' || node === null) return []
  const schema = node as JsonSchema
  if (schema.$ref) return []
  if (Object.keys(schema).every((key) => WORDS.has(key))) return [at || '(body)']
  const found: string[] = []
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    for (const [index, option] of ((schema[key] as unknown[]) ?? []).entries())
      found.push(...untypedLeaves(option, `${at}|${key}${index}`))
  for (const [name, value] of Object.entries((schema.properties as JsonSchema) ?? {}))
    found.push(...untypedLeaves(value, `${at}.${name}`))
  if (schema.type === 'array') found.push(...untypedLeaves(schema.items, `${at}[]`))
  const extra = schema.additionalProperties
  if (typeof extra === 'object' && extra !== null && Object.keys(extra).length > 0)
    found.push(...untypedLeaves(extra, `${at}{}`))
  if (schema.type === 'object' && !schema.properties && !(typeof extra === 'object' && extra))
    found.push(`${at || '(body)'} (an object of anything)`)
  return found
}

test('every request body is typed to its leaves (binary uploads declare their media type)', (t) => {
  const untyped: string[] = []
  const uploads: string[] = []
  for (const { route } of documented) {
    const content = operationOf(route).requestBody?.content as
      | Record<string, { schema?: unknown }>
      | undefined
    if (!content) continue
    for (const [type, { schema }] of Object.entries(content)) {
      const leaves = untypedLeaves(schema, '')
      if (leaves.length) untyped.push(`${name(route)} (${type}): ${leaves.join(', ')}`)
    }
    if (typeof route.multipart === 'function') {
      const form = content['multipart/form-data']?.schema
      const binary = JSON.stringify(form ?? {}).match(/"format":"binary"[^}]*/g) ?? []
      if (!binary.length || !binary.every((part) => part.includes('"contentMediaType":"')))
        uploads.push(name(route))
    }
  }
  t.deepEqual(untyped, [], 'type these fields in the route’s body schema')
  t.deepEqual(
    uploads,
    [],
    'declare these uploads as multipart/form-data with a binary part’s media type',
  )
  t.true(documented.some(({ route }) => typeof route.multipart === 'function'))
})

/** A request schema as the document shows it. */
const schemaOf = (schema: z.ZodType) => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })
  return rest
}

test('the leaf check finds a body that lost its types', (t) => {
  const lost = z.object({
    name: z.string(),
    rows: z.array(z.object({ id: z.string(), extra: z.unknown() })),
  })
  t.deepEqual(untypedLeaves(schemaOf(lost), ''), ['.rows[].extra'])
  t.deepEqual(untypedLeaves(schemaOf(z.unknown()), ''), ['(body)'])
  t.deepEqual(untypedLeaves(schemaOf(z.object({ list: z.array(z.unknown()) })), ''), ['.list[]'])
})
