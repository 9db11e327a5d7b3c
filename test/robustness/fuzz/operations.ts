// The operations the fuzzer sends: every route the assembled plugins declare, with what the
// OpenAPI document says of its body (schema and example). A route left out of the document (an
// HTML page) is fuzzed all the same, from its declaration alone.
import type { AppContext } from '../../../api/app.ts'
import { buildOpenApi } from '../../../api/openapi.ts'
import type { Route } from '../../../api/plugin.ts'

export type JsonSchema = Record<string, unknown>

export interface Operation {
  route: Route
  /** `GET /resources/{id}.json` */
  name: string
  /** The path's placeholders, in order. */
  params: string[]
  bodySchema?: JsonSchema
  example?: unknown
}

export interface FuzzDocument {
  operations: Operation[]
  /** Resolves `$ref`s of the document's schemas. */
  resolve: (schema: JsonSchema) => JsonSchema
}

export const operationsOf = (app: AppContext): FuzzDocument => {
  const document = buildOpenApi(app.plugins) as unknown as {
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, JsonSchema> } }>>
    components: { schemas: Record<string, JsonSchema> }
  }
  const resolve = (schema: JsonSchema): JsonSchema => {
    const ref = schema.$ref
    if (typeof ref !== 'string') return schema
    return document.components.schemas[ref.split('/').at(-1)!] ?? {}
  }
  const operations = app.plugins
    .flatMap((plugin) => plugin.routes ?? [])
    .map((route): Operation => {
      const json =
        document.paths[route.path]?.[route.method.toLowerCase()]?.requestBody?.content[
          'application/json'
        ]
      return {
        route,
        name: `${route.method} ${route.path}`,
        params: [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]),
        bodySchema: json?.schema as JsonSchema | undefined,
        example: json?.example,
      }
    })
  return { operations, resolve }
}
