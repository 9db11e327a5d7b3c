// Builds the OpenAPI 3.1 document from the route declarations of the enabled plugins, so the
// reference always matches what the server validates.
import { z } from 'zod'
import type { Plugin, Route } from './plugin.ts'

export const API_VERSION = '5.0.0'

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >
  return rest
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

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: envelope({}) } },
})

const parameters = (route: Route) => {
  const list: Record<string, unknown>[] = [
    { name: 'api-version', in: 'query', required: false, schema: { type: 'string', enum: ['v2'] } },
  ]
  if (route.params) {
    const schema = jsonSchema(route.params, 'input') as { properties?: Record<string, unknown> }
    for (const [name, property] of Object.entries(schema.properties ?? {}))
      list.push({ name, in: 'path', required: true, schema: property })
  }
  for (const [name, spec] of Object.entries(route.query?.contain ?? {}))
    list.push({
      name: `contain[${name}]`,
      in: 'query',
      required: false,
      ...(spec.default ? { description: 'on unless 0' } : {}),
      schema: { type: 'string', enum: ['0', '1'] },
    })
  for (const [name, kind] of Object.entries(route.query?.filter ?? {}))
    list.push({
      name: `filter[${name}]`,
      in: 'query',
      required: false,
      description: `${kind} filter`,
      schema: { type: 'string' },
    })
  if (route.query?.sort?.length)
    list.push({
      name: 'sort',
      in: 'query',
      required: false,
      schema: { type: 'string', enum: route.query.sort },
    })
  if (route.query?.paginate)
    for (const name of ['page', 'limit'])
      list.push({ name, in: 'query', required: false, schema: { type: 'integer', minimum: 1 } })
  return list
}

const operation = (plugin: Plugin, route: Route) => {
  const responses: Record<string, unknown> = {
    '200': {
      description: route.message ?? 'The operation was successful.',
      content: {
        'application/json': {
          schema: envelope(route.response ? jsonSchema(route.response, 'output') : {}),
        },
      },
    },
    '400': errorResponse(
      'Bad request: invalid query, parameters or body (validation errors in body)',
    ),
  }
  if (route.auth !== 'public')
    responses['401'] = errorResponse('Authentication is required to continue')
  if (route.auth === 'admin')
    responses['403'] = errorResponse('Access restricted to administrators.')
  if (route.permission !== 'none')
    for (const status of route.permission.refusals)
      responses[String(status)] ??= errorResponse(
        `Refused unless the caller has ${route.permission.description}`,
      )
  return {
    operationId: route.action,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [plugin.name],
    security: route.auth === 'public' ? [] : [{ gpgAuth: [] }, { jwt: [] }],
    parameters: parameters(route),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
          },
        }
      : {}),
    responses,
  }
}

export const buildOpenApi = (plugins: readonly Plugin[]) => {
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
      schemas: { header },
      securitySchemes: {
        gpgAuth: {
          type: 'apiKey',
          in: 'cookie',
          name: 'passbolt_session',
          description: 'GPGAuth session; changing calls need X-CSRF-Token',
        },
        jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
  }
}
