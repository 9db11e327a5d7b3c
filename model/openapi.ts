// The parts of an OpenAPI 3.1 document the API reference reads.

export interface JsonSchema {
  type?: string | string[]
  title?: string
  description?: string
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  items?: JsonSchema
  prefixItems?: JsonSchema[]
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  enum?: unknown[]
  const?: unknown
  format?: string
  pattern?: string
  default?: unknown
  examples?: unknown[]
  example?: unknown
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  minLength?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
  $ref?: string
}

export interface Parameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required?: boolean
  description?: string
  schema?: JsonSchema
  example?: unknown
}

export interface MediaType {
  schema?: JsonSchema
  example?: unknown
}

export interface Operation {
  operationId?: string
  summary?: string
  description?: string
  tags?: string[]
  security?: Record<string, string[]>[]
  parameters?: Parameter[]
  requestBody?: { required?: boolean; content: Record<string, MediaType> }
  responses?: Record<string, { description: string; content?: Record<string, MediaType> }>
}

export interface SecurityScheme {
  type: string
  in?: string
  name?: string
  scheme?: string
  bearerFormat?: string
  description?: string
}

export interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string; description?: string }
  tags?: { name: string; description?: string }[]
  paths: Record<string, Record<string, Operation>>
  components?: {
    schemas?: Record<string, JsonSchema>
    securitySchemes?: Record<string, SecurityScheme>
  }
}

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const
