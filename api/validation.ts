// Validates request parts with zod and turns failures into passbolt's error tree:
// `{field: {rule: message}}`, nested for objects and array rows as CakePHP reports them.
import { z } from 'zod'
import { badRequest, messages } from './errors.ts'
import { UUID_SOURCE } from './uuid.ts'

type Issue = z.core.$ZodIssue

/** passbolt (CakePHP) rule name and message for a zod issue. */
export const ruleOf = (issue: Issue): [rule: string, message: string] => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return ['_required', 'This field is required.']
      if (issue.expected === 'boolean') return ['boolean', 'The value should be a boolean.']
      if (issue.expected === 'number' || issue.expected === 'int')
        return ['numeric', 'The value should be a number.']
      if (issue.expected === 'array') return ['array', 'The value should be a list.']
      if (issue.expected === 'object') return ['array', 'The value should be an object.']
      return ['type', `The value should be of type ${issue.expected}.`]
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1)
        return ['_empty', 'This field cannot be left empty.']
      if (issue.origin === 'array' && issue.minimum === 1)
        return ['_empty', 'This field cannot be left empty.']
      if (issue.origin === 'string')
        return ['minLength', `The value should be at least ${issue.minimum} characters long.`]
      if (issue.origin === 'array')
        return ['hasAtLeast', `The list should hold at least ${issue.minimum} items.`]
      return ['range', `The value should be at least ${issue.minimum}.`]
    case 'too_big':
      if (issue.origin === 'string')
        return ['maxLength', `The value should be ${issue.maximum} characters long maximum.`]
      if (issue.origin === 'array')
        return ['hasAtMost', `The list should hold at most ${issue.maximum} items.`]
      return ['range', `The value should be at most ${issue.maximum}.`]
    case 'invalid_format':
      if (issue.format === 'email') return ['email', 'The value should be a valid email address.']
      if (issue.format === 'uuid' || issue.format === 'guid')
        return ['uuid', 'The value should be a valid UUID.']
      return [issue.format, `The value should be a valid ${issue.format}.`]
    case 'invalid_value':
      return [
        'inList',
        `The value should be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`,
      ]
    case 'unrecognized_keys':
      return ['unknown', 'This field is not allowed.']
    case 'custom':
      return [(issue.params?.rule as string | undefined) ?? 'custom', issue.message]
    default:
      return [issue.code, issue.message]
  }
}

type Tree = { [key: string]: Tree | string }

/**
 * Sets an own property, even one named `__proto__`: plain assignment of that name would replace
 * the node's prototype instead, and walking into it would reach Object.prototype.
 */
const setOwn = (node: Tree, name: string, value: Tree | string) =>
  Object.defineProperty(node, name, { value, enumerable: true, writable: true, configurable: true })

/**
 * Adds `rule: message` at `path` unless that rule is there already. Path segments are request
 * keys (a strict schema reports `__proto__` or `constructor` as unrecognized), so the walk reads
 * own properties only: an inherited one (`constructor`, `__proto__`) is never stepped into.
 */
const addToTree = (
  tree: Tree,
  path: readonly PropertyKey[],
  rule: string,
  message: string,
): void => {
  let node = tree
  for (const key of path) {
    const name = String(key)
    const next = Object.hasOwn(node, name) ? node[name] : undefined
    if (typeof next === 'object') node = next
    else {
      const created: Tree = {}
      setOwn(node, name, created)
      node = created
    }
  }
  if (!Object.hasOwn(node, rule)) setOwn(node, rule, message)
}

/** Builds the nested error tree; array rows are keyed by index. */
export const errorTree = (issues: Issue[]): Tree => {
  const tree: Tree = {}
  for (const issue of issues) {
    // The message is the schema's own when it has one, else the passbolt-style default.
    const [rule] = ruleOf(issue)
    const message = issue.message
    const keys =
      issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k]) : [issue.path]
    // The first failure per rule wins, as with CakePHP.
    for (const path of keys) addToTree(tree, path, rule, message)
  }
  return tree
}

/** Parses `value` or throws 400 with the error tree. */
export const validate = <S extends z.ZodType>(
  schema: S,
  value: unknown,
  message: string = messages.validation,
): z.output<S> => {
  // reportInput lets the rule name tell a missing field from a wrong type; inputs are never sent back.
  const result = schema.safeParse(value, {
    error: (issue) => ruleOf(issue as Issue)[1],
    reportInput: true,
  })
  if (result.success) return result.data
  throw badRequest(message, errorTree(result.error.issues))
}

/** A UUID as passbolt accepts one in a request: any version, either case. */
export const uuidText = z
  .string()
  .regex(new RegExp(`^${UUID_SOURCE}$`, 'i'))
  .meta({ format: 'uuid' })

/** CakePHP's boolean: true, false, 0, 1, '0', '1'. */
export const cakeBoolean = z.union([z.boolean(), z.literal([0, 1, '0', '1'])])

/** The JSON schema the API reference shows for `schema`, as a request part. */
export const documented = (schema: z.ZodType) => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })
  return rest
}

/** How a field that must be sent is refused when it is not. */
export interface Missing {
  message: string
  /** Whether `null` counts as not sent (else it is a wrong value). @default false */
  orNull?: boolean
}

/**
 * A field passbolt checks with one rule whatever is wrong with it (a number where a UUID is due
 * breaks `uuid`, as a malformed string does): documented as `schema`, refused with that rule and
 * message, as the services' row-by-row checks report them; with `missing`, one that must be sent
 * is refused as `_required` when it is not.
 */
export const withRule: {
  /** Refused as `_required` when not sent: the value is always there. */
  <S extends z.ZodType>(
    schema: S,
    rule: string,
    message: string,
    missing: Missing,
  ): z.ZodType<z.output<S>>
  <S extends z.ZodType>(
    schema: S,
    rule: string,
    message: string,
  ): z.ZodType<z.output<S> | undefined>
} = (schema: z.ZodType, rule: string, message: string, missing?: Missing) =>
  z
    .unknown()
    .superRefine((value, context) => {
      const absent = value === undefined || (missing?.orNull === true && value === null)
      if (absent) {
        if (missing)
          context.addIssue({
            code: 'custom',
            message: missing.message,
            params: { rule: '_required' },
          })
      } else if (!schema.safeParse(value).success)
        context.addIssue({ code: 'custom', message, params: { rule } })
    })
    // What passes is the value as sent, which `schema` accepted (a schema here never transforms).
    .meta(documented(schema)) as unknown as z.ZodType<never>

/**
 * A field passbolt checks with several rules in its own order (present, then text, then not
 * empty, then short enough): `rules` names the first one the value breaks, or none. Documented
 * and typed as `schema`, which a value that breaks no rule then goes through.
 */
export const withRules = <S extends z.ZodType>(
  schema: S,
  rules: (value: unknown) => readonly [rule: string, message: string] | undefined,
) =>
  z
    .unknown()
    .superRefine((value, context) => {
      const broken = rules(value)
      if (broken)
        context.addIssue({ code: 'custom', message: broken[1], params: { rule: broken[0] } })
    })
    .pipe(schema)
    .meta(documented(schema))

/**
 * A part a service checks itself, because passbolt answers its faults with messages that depend
 * on more than the part (a tag list: a malformed row and a bad slug get different headers):
 * documented as `schema`, accepted as sent here, and read only through that service's check.
 */
export const checkedLater = (schema: z.ZodType) =>
  z.custom<unknown>(() => true).meta(documented(schema))

const isRecord = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * A list row that must be an object: anything else is refused on one of its fields (`field`,
 * with `rule` and `message`), as passbolt reports a malformed row; an object is checked by
 * `schema`, field by field.
 */
export const rowOf = <S extends z.ZodType<unknown, Record<string, unknown>>>(
  schema: S,
  refusal: { field: string; rule: string; message: string },
) =>
  z
    .custom<Record<string, unknown>>(isRecord, {
      error: refusal.message,
      params: { rule: refusal.rule },
      path: [refusal.field],
    })
    .pipe(schema)
    .meta(documented(schema))

/**
 * An error tree built by hand, for checks a schema cannot express (rows that must exist, a
 * set that must match): `add(['permissions', 0, 'aro_foreign_key'], 'aro_exists', '…')`.
 */
export class ErrorTree {
  readonly tree: Tree = {}

  add(path: readonly (string | number)[], rule: string, message: string): void {
    addToTree(this.tree, path, rule, message)
  }

  get empty(): boolean {
    return Object.keys(this.tree).length === 0
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Text PostgreSQL can store as sent and passbolt calls valid UTF-8: no lone surrogate (which
 * would be stored as U+FFFD) and no NUL (which PostgreSQL refuses).
 */
export const isWellFormedText = (text: string): boolean =>
  !LONE_SURROGATE.test(text) && !text.includes('\u0000')
