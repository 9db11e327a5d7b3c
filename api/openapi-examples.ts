// Examples for the OpenAPI document, generated from the JSON Schemas zod gives, so a new route
// gets its examples without hand-written JSON: a schema's own `examples`/`example` (zod
// `.meta({ examples: [...] })`) wins where a generated value would mislead; error bodies are
// built with the validation tree's own rule names and messages.
import { actionId } from './envelope.ts'
import { messages } from './errors.ts'
import { ruleOf } from './validation.ts'

export type JsonSchema = {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  enum?: unknown[]
  const?: unknown
  format?: string
  examples?: unknown[]
  example?: unknown
  default?: unknown
  minimum?: number
  exclusiveMinimum?: number
  minLength?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
  $ref?: string
  [key: string]: unknown
}

const EXAMPLE_UUIDS = [
  '8e3874ae-4b40-590b-968a-418f704b9d9a',
  'd57c10f5-639d-5160-9c81-8a0c6c4ec856',
  '640ebc06-5ec1-5322-a1ae-6120ed2f3a74',
  'f848277c-5398-58f8-a82a-72397af2d450',
]
const EXAMPLE_TIME = '2026-01-15T09:30:00+00:00'

/** Armored OpenPGP blocks, shortened: a reader recognises them, nobody mistakes them for real. */
const ARMORED: Record<string, string> = {
  message: '-----BEGIN PGP MESSAGE-----\n\nwcFMA…\n-----END PGP MESSAGE-----\n',
  key: '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nxsFNB…\n-----END PGP PUBLIC KEY BLOCK-----\n',
}

/** A plausible string for a property, from its format, then its name. */
const stringExample = (schema: JsonSchema, name: string, seed: number): string => {
  switch (schema.format) {
    case 'uuid':
      return EXAMPLE_UUIDS[seed % EXAMPLE_UUIDS.length]
    case 'date-time':
      return EXAMPLE_TIME
    case 'date':
      return EXAMPLE_TIME.slice(0, 10)
    case 'email':
      return 'ada@example.com'
    case 'uri':
    case 'url':
      return 'https://example.com/'
  }
  if (/^(username|email)$/.test(name)) return 'ada@example.com'
  if (/^(created|modified|deleted|expired|last_logged_in)$|_date$/.test(name)) return EXAMPLE_TIME
  if (/armored_key|public_key/.test(name)) return ARMORED.key
  if (/^(data|metadata|message|challenge)$/.test(name)) return ARMORED.message
  if (/^(uri|url)$/.test(name)) return 'https://example.com/'
  if (name === 'first_name') return 'Ada'
  if (name === 'last_name') return 'Lovelace'
  if (name === 'name') return 'Example'
  const text = name ? name.replace(/_/g, ' ') : 'string'
  const min = schema.minLength ?? 0
  const max = schema.maxLength ?? Number.POSITIVE_INFINITY
  const padded = text.length < min ? text.padEnd(min, 'x') : text
  return padded.length > max ? padded.slice(0, Math.max(max, 1)) : padded
}

const isNull = (schema: JsonSchema) => schema.type === 'null'

/** An example value of `schema`; `name` is the property it sits in, which guides strings. */
export const exampleOf = (schema: JsonSchema | undefined, name = '', seed = 0): unknown => {
  if (!schema || typeof schema !== 'object') return {}
  if (schema.examples?.length) return schema.examples[0]
  if (schema.example !== undefined) return schema.example
  if (schema.const !== undefined) return schema.const
  if (schema.default !== undefined) return schema.default
  if (schema.enum?.length) return schema.enum.find((value) => value !== null) ?? schema.enum[0]
  const variants = schema.oneOf ?? schema.anyOf
  if (variants?.length)
    return exampleOf(variants.find((variant) => !isNull(variant)) ?? variants[0], name, seed)
  if (schema.allOf?.length)
    return Object.assign({}, ...schema.allOf.map((part) => exampleOf(part, name, seed)))
  const type = Array.isArray(schema.type)
    ? (schema.type.find((t) => t !== 'null') ?? 'null')
    : schema.type
  switch (type) {
    case 'string':
      return stringExample(schema, name, seed)
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum ?? 0) + 1
    case 'boolean':
      return true
    case 'null':
      return null
    case 'array': {
      const count = Math.max(1, Math.min(schema.minItems ?? 1, schema.maxItems ?? 1))
      return Array.from({ length: count }, (_, i) => exampleOf(schema.items, name, seed + i))
    }
    default: {
      if (!schema.properties) return {}
      let index = seed
      return Object.fromEntries(
        Object.entries(schema.properties).map(([key, property]) => [
          key,
          exampleOf(property, key, index++),
        ]),
      )
    }
  }
}

type Tree = { [key: string]: Tree | string }

/**
 * The validation tree a body would get for its most telling mistake: a required field left out,
 * else a text over its limit, else a wrong type; the wording is the server's own (ruleOf).
 */
export const validationTreeOf = (schema: JsonSchema | undefined): Tree => {
  const properties = schema?.properties ?? {}
  const required = schema?.required?.[0]
  if (required) {
    const [rule, message] = ruleOf({
      code: 'invalid_type',
      expected: 'string',
      input: undefined,
      path: [required],
      message: '',
    } as never)
    return { [required]: { [rule]: message } }
  }
  for (const [key, property] of Object.entries(properties)) {
    const text = [property, ...(property.anyOf ?? [])].find((s) => s.maxLength !== undefined)
    if (text) {
      const [rule, message] = ruleOf({
        code: 'too_big',
        origin: 'string',
        maximum: text.maxLength,
        path: [key],
        message: '',
      } as never)
      return { [key]: { [rule]: message } }
    }
  }
  const [rule, message] = ruleOf({
    code: 'invalid_type',
    expected: 'object',
    input: 1,
    path: [],
    message: '',
  } as never)
  return { [rule]: message }
}

/** A whole envelope as the server answers it. */
export const envelopeExample = (input: {
  action: string
  path: string
  status: number
  message: string
  body: unknown
  paginated?: boolean
}) => ({
  header: {
    id: EXAMPLE_UUIDS[3],
    status: input.status < 400 ? 'success' : 'error',
    servertime: 1768469400,
    action: actionId(input.action),
    message: input.message,
    url: input.path.replace(/\{[^}]+\}/g, EXAMPLE_UUIDS[0]),
    code: input.status,
    ...(input.paginated ? { pagination: { count: 1, page: 1, limit: null } } : {}),
  },
  body: input.body,
})

export const errorMessages = {
  400: messages.validation,
  401: messages.authenticationRequired,
  403: messages.adminOnly,
  404: messages.notFound,
} as const
