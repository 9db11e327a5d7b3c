// Builds the OpenAPI 3.1 document from the route declarations of the enabled plugins, so the
// reference always matches what the server validates.
import { createHash } from 'node:crypto'
import { z } from 'zod'
import { messages as csrfMessages } from './auth/csrf.ts'
import { messages } from './errors.ts'
import {
  envelopeExample,
  errorMessages,
  exampleOf,
  type JsonSchema,
  validationTreeOf,
} from './openapi-examples.ts'
import type { Plugin, Route } from './plugin.ts'
import type { FilterKind } from './query.ts'
import { TOO_MANY } from './throttle.ts'

export const API_VERSION = '5.0.0'

/** Formats whose regular expression only repeats the format: dropped for the reader. */
const SELF_EXPLAINING = new Set(['uuid', 'date-time', 'email', 'date'])

const dropFormatPatterns = (node: unknown): void => {
  if (!node || typeof node !== 'object') return
  if (Array.isArray(node)) {
    for (const item of node) dropFormatPatterns(item)
    return
  }
  const record = node as Record<string, unknown>
  if (typeof record.format === 'string' && SELF_EXPLAINING.has(record.format)) delete record.pattern
  for (const value of Object.values(record)) dropFormatPatterns(value)
}

/**
 * Definitions a recursive schema (a comment thread) refers to, moved from the schema's own
 * `$defs` into `components.schemas` under a name taken from their content, where the document's
 * references can reach them.
 */
let recursiveDefinitions: Record<string, unknown> = {}

const hoistDefinitions = (schema: Record<string, unknown>) => {
  const defs = schema.$defs as Record<string, unknown> | undefined
  if (!defs) return schema
  delete schema.$defs
  const names = new Map(
    Object.entries(defs).map(([name, def]) => [
      `#/$defs/${name}`,
      `recursive_${createHash('sha256').update(JSON.stringify(def)).digest('hex').slice(0, 10)}`,
    ]),
  )
  const rewrite = (node: unknown): void => {
    if (!node || typeof node !== 'object') return
    if (Array.isArray(node)) {
      for (const item of node) rewrite(item)
      return
    }
    const record = node as Record<string, unknown>
    if (typeof record.$ref === 'string' && names.has(record.$ref))
      record.$ref = `#/components/schemas/${names.get(record.$ref)}`
    for (const value of Object.values(record)) rewrite(value)
  }
  rewrite(schema)
  for (const [name, def] of Object.entries(defs)) {
    rewrite(def)
    recursiveDefinitions[names.get(`#/$defs/${name}`) as string] = def
  }
  return schema
}

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >
  dropFormatPatterns(rest)
  return hoistDefinitions(rest)
}

const header = {
  type: 'object',
  required: ['id', 'status', 'servertime', 'action', 'message', 'url', 'code'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    status: { type: 'string', enum: ['success', 'error'] },
    servertime: { type: 'integer', description: 'Unix time in seconds' },
    action: { type: 'string', format: 'uuid' },
    message: { type: 'string' },
    url: { type: 'string' },
    code: { type: 'integer' },
    pagination: {
      type: 'object',
      properties: {
        count: { type: 'integer' },
        page: { type: 'integer' },
        limit: { type: ['integer', 'null'] },
      },
    },
  },
}

const envelope = (body: unknown) => ({
  type: 'object',
  required: ['header', 'body'],
  properties: { header: { $ref: '#/components/schemas/header' }, body },
})

const ERROR_BODY = {
  description: 'The validation tree for 400 (`{field: {rule: message}}`), else an empty string.',
  anyOf: [{ $ref: '#/components/schemas/validationErrors' }, { type: 'string', const: '' }],
}

const errorResponse = (
  route: Route,
  status: number,
  description: string,
  body: unknown = '',
  message?: string,
) => ({
  description,
  content: {
    'application/json': {
      schema: envelope(ERROR_BODY),
      example: envelopeExample({
        action: route.action,
        path: route.path,
        status,
        message:
          message ??
          (status === 400
            ? (route.validationMessage ?? errorMessages[400])
            : errorMessages[status as keyof typeof errorMessages]),
        body,
      }),
    },
  },
})

const CHANGING = new Set(['POST', 'PUT', 'DELETE'])

/** Example messages of a refusal whose policy does not name its own (a test requires them). */
const REFUSAL_MESSAGES = { 403: messages.adminOnly, 404: messages.notFound } as const

/** Public routes need nothing; others take a cookie session (with the CSRF token on changing calls) or a JWT. */
const security = (route: Route) => {
  if (route.auth === 'public') return []
  const csrf = CHANGING.has(route.method) && route.csrf !== false
  return [csrf ? { gpgAuth: [], csrfToken: [] } : { gpgAuth: [] }, { jwt: [] }]
}

/** What a filter's value is; its name says what it keeps. */
const FILTER_DESCRIPTIONS: Record<FilterKind, string> = {
  boolean: 'Filter: `1` or `0`.',
  uuid: 'Filter: an identifier.',
  uuids: 'Filter: identifiers (`filter[name][]=…` repeated).',
  parent: 'Filter: folder identifiers (repeated); `0` for the root.',
  search: 'Filter: text to look for, 1 to 64 characters.',
  timestamp: 'Filter: a Unix time in seconds.',
  datetime: 'Filter: an ISO 8601 date-time.',
  string: 'Filter: a value of at most 1,024 characters.',
  integer: 'Filter: a whole number.',
}

const parameters = (route: Route) => {
  const list: Record<string, unknown>[] = [
    {
      name: 'api-version',
      in: 'query',
      required: false,
      description: 'The API version the passbolt clients announce; `v1` is refused.',
      schema: { type: 'string', enum: ['v2'] },
    },
  ]
  if (route.params) {
    const schema = jsonSchema(route.params, 'input') as { properties?: Record<string, unknown> }
    for (const [name, property] of Object.entries(schema.properties ?? {}))
      list.push({
        name,
        in: 'path',
        required: true,
        schema: property,
        example: exampleOf(property as JsonSchema, name),
      })
  }
  for (const [name, spec] of Object.entries(route.query?.contain ?? {}))
    list.push({
      name: `contain[${name}]`,
      in: 'query',
      required: false,
      description: `\`1\` adds \`${name}\` to the answer${spec.default ? '; on unless `0`' : ''}.`,
      schema: { type: 'string', enum: ['0', '1'] },
    })
  for (const [name, kind] of Object.entries(route.query?.filter ?? {}))
    list.push({
      name: `filter[${name}]`,
      in: 'query',
      required: false,
      description: FILTER_DESCRIPTIONS[kind],
      schema: { type: 'string' },
    })
  if (route.query?.sort?.length)
    list.push({
      name: 'sort',
      in: 'query',
      required: false,
      description: `Order of the rows; \`${route.query.sort[0]}\` unless given.`,
      schema: { type: 'string', enum: route.query.sort },
    })
  if (route.query?.paginate)
    list.push(
      {
        name: 'page',
        in: 'query',
        required: false,
        description: 'Page to answer, from 1; the header’s `pagination` tells the count.',
        schema: { type: 'integer', minimum: 1 },
      },
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: 'Rows per page; every row when absent.',
        schema: { type: 'integer', minimum: 1 },
      },
    )
  return list
}

const operation = (plugin: Plugin, route: Route) => {
  const body = route.body ? jsonSchema(route.body, 'input') : undefined
  const result = route.response ? jsonSchema(route.response, 'output') : undefined
  const responses: Record<string, unknown> = {
    '200': route.produces
      ? {
          description: route.summary,
          content: { [route.produces]: { schema: { type: 'string', format: 'binary' } } },
        }
      : {
          description: route.message ?? 'The operation was successful.',
          content: {
            'application/json': {
              schema: envelope(result ?? {}),
              ...(result
                ? {
                    example: envelopeExample({
                      action: route.action,
                      path: route.path,
                      status: 200,
                      message: route.message ?? 'The operation was successful.',
                      body: exampleOf(result),
                      paginated: route.query?.paginate,
                    }),
                  }
                : {}),
            },
          },
        },
    '400': errorResponse(
      route,
      400,
      'Bad request: invalid query, parameters or body (validation errors in body)',
      body ? validationTreeOf(body) : '',
    ),
  }
  if (route.auth !== 'public')
    responses['401'] = errorResponse(route, 401, 'Authentication is required to continue')
  if (route.auth === 'admin')
    responses['403'] = errorResponse(route, 403, 'Access restricted to administrators.')
  if (route.permission !== 'none')
    for (const status of route.permission.refusals)
      responses[String(status)] ??= errorResponse(
        route,
        status,
        `Refused unless the caller has ${route.permission.description}`,
        '',
        route.permission.refusalMessages?.[status] ?? REFUSAL_MESSAGES[status],
      )
  if (CHANGING.has(route.method) && route.csrf !== false) {
    const csrf =
      'a cookie-session call without the CSRF token (`X-CSRF-Token` echoing the `csrfToken` cookie)'
    const refused = responses['403'] as { description: string } | undefined
    if (refused) refused.description += `; also ${csrf}`
    else responses['403'] = errorResponse(route, 403, `Refused: ${csrf}`, '', csrfMessages.mismatch)
  }
  if (route.throttle)
    responses['429'] = errorResponse(
      route,
      429,
      'Too many failed attempts in a minute, for the account or the client address (`Retry-After` says when to try again)',
      '',
      TOO_MANY,
    )
  return {
    operationId: route.action,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [plugin.name],
    security: security(route),
    parameters: parameters(route),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: body, example: exampleOf(body) },
              // A route taking an upload also reads the same fields from a form, its files as
              // binary parts (their media type in the schema), as the clients send them.
              ...(typeof route.multipart === 'function'
                ? { 'multipart/form-data': { schema: body } }
                : {}),
            },
          },
        }
      : {}),
    responses,
  }
}

export const buildOpenApi = (plugins: readonly Plugin[]) => {
  recursiveDefinitions = {}
  const paths: Record<string, Record<string, unknown>> = {}
  for (const plugin of plugins)
    for (const route of plugin.routes ?? []) {
      if (route.openapi === false) continue
      paths[route.path] ??= {}
      paths[route.path][route.method.toLowerCase()] = operation(plugin, route)
    }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Keyward API',
      version: API_VERSION,
      description:
        'The passbolt REST API v5 as Keyward serves it. Every answer is wrapped in the envelope {header, body}.',
      license: { name: 'AGPL-3.0-or-later', identifier: 'AGPL-3.0-or-later' },
    },
    servers: [{ url: '/' }],
    tags: plugins.map((plugin) => ({ name: plugin.name })),
    paths,
    components: {
      schemas: {
        ...recursiveDefinitions,
        header,
        validationErrors: {
          type: 'object',
          description:
            'What failed, by field: `{field: {rule: message}}`, nested like the body (array rows by index).',
          additionalProperties: true,
        },
      },
      securitySchemes: {
        gpgAuth: {
          type: 'apiKey',
          in: 'cookie',
          name: 'passbolt_session',
          description: 'Cookie session opened by the GPGAuth sign-in (`/auth/login.json`).',
        },
        csrfToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-CSRF-Token',
          description:
            'With a cookie session, changing calls echo the `csrfToken` cookie in this header.',
        },
        jwt: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Access token from `/auth/jwt/login.json`, valid 5 minutes.',
        },
      },
    },
  }
}
