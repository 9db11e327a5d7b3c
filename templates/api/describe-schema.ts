// Reads a JSON Schema the way a person describes it: its type ("string or null", "list of
// objects"), its format and its limits in words ("at most 255 characters"), its variants.
import type { JsonSchema } from '../../model/openapi.ts'

const typesOf = (schema: JsonSchema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type]

const isNullSchema = (schema: JsonSchema) => typesOf(schema).join() === 'null'

/** The schema without its `null` alternative, and whether it had one. */
export const unwrapNullable = (schema: JsonSchema): { schema: JsonSchema; nullable: boolean } => {
  const variants = schema.anyOf ?? schema.oneOf
  if (variants?.some(isNullSchema)) {
    const rest = variants.filter((variant) => !isNullSchema(variant))
    const merged =
      rest.length === 1
        ? { ...rest[0], description: schema.description ?? rest[0].description }
        : { ...schema, anyOf: rest, oneOf: undefined }
    return { schema: merged, nullable: true }
  }
  const types = typesOf(schema)
  if (types.includes('null') && types.length > 1) {
    const rest = types.filter((t) => t !== 'null')
    return { schema: { ...schema, type: rest.length === 1 ? rest[0] : rest }, nullable: true }
  }
  return { schema, nullable: false }
}

/** Variants a value may take (`oneOf`/`anyOf` with more than one non-null member). */
export const variantsOf = (schema: JsonSchema): JsonSchema[] | undefined => {
  const variants = schema.oneOf ?? schema.anyOf
  return variants && variants.length > 1 ? variants : undefined
}

export const refName = (ref: string) => ref.replace('#/components/schemas/', '')

/** "string", "list of objects", "integer", "uuid"... */
export const typeLabel = (schema: JsonSchema): string => {
  if (schema.$ref) return refName(schema.$ref)
  if (schema.const !== undefined) return 'constant'
  const types = typesOf(schema)
  if (types.includes('array')) {
    const items = schema.items ? unwrapNullable(schema.items).schema : undefined
    return `list of ${items ? plural(typeLabel(items)) : 'values'}`
  }
  if (variantsOf(schema)) return 'one of'
  if (types.length === 0) return schema.properties ? 'object' : 'any'
  return types.join(' or ')
}

const plural = (label: string) =>
  label === 'any' ? 'values' : /s$/.test(label) || label.includes(' ') ? label : `${label}s`

const characters = (n: number) => `${n} character${n === 1 ? '' : 's'}`
const items = (n: number) => `${n} item${n === 1 ? '' : 's'}`

/** Limits and formats in words. */
export const constraintsOf = (schema: JsonSchema): string[] => {
  const out: string[] = []
  if (schema.format) out.push(schema.format)
  if (schema.minLength !== undefined && schema.maxLength !== undefined)
    out.push(
      schema.minLength === schema.maxLength
        ? `exactly ${characters(schema.minLength)}`
        : `${schema.minLength} to ${characters(schema.maxLength)}`,
    )
  else if (schema.maxLength !== undefined) out.push(`at most ${characters(schema.maxLength)}`)
  else if (schema.minLength !== undefined) out.push(`at least ${characters(schema.minLength)}`)
  if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`)
  if (schema.exclusiveMinimum !== undefined) out.push(`> ${schema.exclusiveMinimum}`)
  if (schema.maximum !== undefined) out.push(`≤ ${schema.maximum}`)
  if (schema.exclusiveMaximum !== undefined) out.push(`< ${schema.exclusiveMaximum}`)
  if (schema.minItems !== undefined && schema.maxItems !== undefined)
    out.push(
      schema.minItems === schema.maxItems
        ? `exactly ${items(schema.minItems)}`
        : `${schema.minItems} to ${items(schema.maxItems)}`,
    )
  else if (schema.minItems !== undefined) out.push(`at least ${items(schema.minItems)}`)
  else if (schema.maxItems !== undefined) out.push(`at most ${items(schema.maxItems)}`)
  if (schema.pattern) out.push(`matches ${schema.pattern}`)
  return out
}

/** Allowed values, when the schema lists them. */
export const valuesOf = (schema: JsonSchema): unknown[] | undefined =>
  schema.enum ?? (schema.const !== undefined ? [schema.const] : undefined)

/** Whether the schema has parts worth a nested tree (properties, object items, variants). */
export const hasChildren = (schema: JsonSchema): boolean => {
  if (schema.properties && Object.keys(schema.properties).length) return true
  if (variantsOf(schema)) return true
  if (schema.items) return hasChildren(unwrapNullable(schema.items).schema)
  return false
}
