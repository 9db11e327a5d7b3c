// Validates request parts with zod and turns failures into passbolt's error tree:
// `{field: {rule: message}}`, nested for objects and array rows as CakePHP reports them.
import type { z } from 'zod'
import { badRequest, messages } from './errors.ts'

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

/** Builds the nested error tree; array rows are keyed by index. */
export const errorTree = (issues: Issue[]): Tree => {
  const tree: Tree = {}
  for (const issue of issues) {
    // The message is the schema's own when it has one, else the passbolt-style default.
    const [rule] = ruleOf(issue)
    const message = issue.message
    const keys =
      issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k]) : [issue.path]
    for (const path of keys) {
      let node = tree
      for (const key of path) {
        const name = String(key)
        if (typeof node[name] !== 'object') node[name] = {}
        node = node[name] as Tree
      }
      // The first failure per rule wins, as with CakePHP.
      if (!(rule in node)) node[rule] = message
    }
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

/**
 * An error tree built by hand, for checks a schema cannot express (rows that must exist, a
 * set that must match): `add(['permissions', 0, 'aro_foreign_key'], 'aro_exists', '…')`.
 */
export class ErrorTree {
  readonly tree: Tree = {}

  add(path: readonly (string | number)[], rule: string, message: string): void {
    let node = this.tree
    for (const key of path) {
      const name = String(key)
      if (typeof node[name] !== 'object') node[name] = {}
      node = node[name] as Tree
    }
    if (!(rule in node)) node[rule] = message
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
