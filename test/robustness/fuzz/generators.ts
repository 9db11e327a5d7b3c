// What the fuzzer sends, as fast-check arbitraries: a valid-looking body drawn from the route's
// JSON schema (or its example), then one mutation of it; path parameters and query strings
// well-formed or not. Ids are drawn from the ids the run has seen (`PoolRef`), resolved when the
// request goes out, so a sequence reuses what earlier requests created.
import fc from 'fast-check'
import type { JsonSchema, Operation } from './operations.ts'

/** An id from the run's pool, the `index`-th modulo its size. */
export class PoolRef {
  constructor(readonly index: number) {}
}

const poolRef = fc.nat({ max: 10_000 }).map((index) => new PoolRef(index))

/** Text a server can mishandle: NUL, lone surrogates, SQL- and path-looking, markup, odd Unicode. */
export const ODD_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  "' OR '1'='1",
  "'; drop table users; --",
  '") or 1=1 --',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%00',
  '%2e%2e%2f',
  '<script>alert(1)</script>',
  '{{7*7}}' + '${' + '7*7}',
  '\u202Eevil',
  '😀'.repeat(50),
  ' ',
  '',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '-1',
  '1e309',
  'NaN',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-4FFF-8FFF-FFFFFFFFFFFF',
  '\r\nX-Injected: 1',
  'a'.repeat(70_000),
]

const oddString = fc.oneof(
  fc.constantFrom(...ODD_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
)

const anyJson = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  oddString,
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
)

const typesOf = (schema: JsonSchema): string[] =>
  Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [String(schema.type)] : []

/** A value the schema should accept (best effort: patterns are met through the examples). */
export const validValue = (
  schema: JsonSchema,
  resolve: (schema: JsonSchema) => JsonSchema,
  depth = 0,
): fc.Arbitrary<unknown> => {
  const s = resolve(schema)
  if (depth > 6) return fc.constant(null)
  if ('const' in s) return fc.constant(s.const)
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...s.enum)
  const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined
  if (alternatives?.length)
    return fc.oneof(...alternatives.map((a) => validValue(a, resolve, depth + 1)))
  if (Array.isArray(s.examples) && s.examples.length > 0)
    return fc.oneof(fc.constantFrom(...s.examples), fc.constantFrom(...s.examples))
  const types = typesOf(s)
  const type = types.find((t) => t !== 'null') ?? (s.properties ? 'object' : undefined)
  switch (type) {
    case 'string':
      if (s.format === 'uuid') return fc.oneof(poolRef, poolRef, fc.uuid({ version: 4 }))
      if (s.format === 'email') return fc.emailAddress()
      if (s.format === 'uri') return fc.webUrl()
      if (s.format === 'date-time')
        return fc.date({ noInvalidDate: true }).map((d) => d.toISOString())
      return fc.string({
        minLength: Number(s.minLength ?? 1),
        maxLength: Math.min(Number(s.maxLength ?? 20), 40),
      })
    case 'integer':
      return fc.integer({ min: Number(s.minimum ?? 0), max: Number(s.maximum ?? 1000) })
    case 'number':
      return fc.double({ min: Number(s.minimum ?? 0), max: Number(s.maximum ?? 1000), noNaN: true })
    case 'boolean':
      return fc.boolean()
    case 'array': {
      const items = (s.items ?? {}) as JsonSchema
      return fc.array(validValue(items, resolve, depth + 1), {
        minLength: Number(s.minItems ?? 0),
        maxLength: Math.min(Number(s.maxItems ?? 3), 3),
      })
    }
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, JsonSchema>
      const required = new Set((s.required ?? []) as string[])
      const model: Record<string, fc.Arbitrary<unknown>> = {}
      for (const [name, property] of Object.entries(properties))
        model[name] = validValue(property, resolve, depth + 1)
      return fc.record(model, {
        requiredKeys: Object.keys(model).filter((name) => required.has(name)),
      })
    }
    default:
      return anyJson
  }
}

export type BodyMutation =
  | { kind: 'valid' }
  | { kind: 'wrong-type'; at: number; value: unknown }
  | { kind: 'odd-string'; at: number; value: string }
  | { kind: 'missing'; at: number }
  | { kind: 'extra'; at: number; key: string; value: unknown }
  | { kind: 'content-type'; type: string }
  | { kind: 'malformed'; text: string }
  | { kind: 'huge'; where: 'body' | 'field'; at: number }
  | { kind: 'deep'; at: number; depth: number; shape: 'array' | 'object' }
  | { kind: 'top-level'; value: unknown }

const at = fc.nat({ max: 1000 })

export const bodyMutation: fc.Arbitrary<BodyMutation> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'valid' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('wrong-type' as const), at, value: anyJson }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('odd-string' as const), at, value: oddString }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('missing' as const), at }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('extra' as const),
      at,
      key: fc.oneof(
        fc.constantFrom(
          '__proto__',
          'constructor',
          'prototype',
          'id',
          'deleted',
          'role_id',
          'is_admin',
        ),
        fc.string({ maxLength: 12 }),
      ),
      value: anyJson,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('content-type' as const),
      type: fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
        'application/xml',
        'application/json; charset=latin1',
        'application/merge-patch+json',
        '',
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('malformed' as const),
      text: fc.constantFrom(
        '{',
        '{"a":',
        '[1,',
        '\uFEFF{}',
        'nul',
        '{"a":1}{"b":2}',
        '{"a":1e99999}',
        "{'a':1}",
        '\u0000',
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('huge' as const),
      where: fc.constantFrom('body' as const, 'field' as const),
      at,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('deep' as const),
      at,
      depth: fc.constantFrom(50, 1_000, 20_000),
      shape: fc.constantFrom('array' as const, 'object' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('top-level' as const),
      value: fc.constantFrom(null, [], [{}], 'text', 42, true, {}),
    }),
  },
)

type Path = (string | number)[]

/** Every path to a value inside `value` (the root excluded), objects and arrays walked. */
const pathsOf = (value: unknown, prefix: Path = [], out: Path[] = []): Path[] => {
  if (value instanceof PoolRef || value === null || typeof value !== 'object') return out
  for (const [key, child] of Object.entries(value)) {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key]
    out.push(path)
    pathsOf(child, path, out)
  }
  return out
}

const clone = (value: unknown): unknown =>
  value instanceof PoolRef || value === null || typeof value !== 'object'
    ? value
    : Array.isArray(value)
      ? value.map(clone)
      : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)]))

const parentOf = (root: unknown, path: Path) => {
  let node = root as Record<string | number, unknown>
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>
  return node
}

const nodeAt = (root: unknown, path: Path): unknown => {
  let node = root
  for (const key of path) node = (node as Record<string | number, unknown>)[key]
  return node
}

const setOwn = (node: object, key: string | number, value: unknown) =>
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true })

const nest = (depth: number, shape: 'array' | 'object'): string =>
  shape === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`

/** A body as it goes out: JSON text with placeholders resolved later, or raw text with a type. */
export type Payload =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; contentType: string }
  | { kind: 'text'; text: string; contentType: string }
  | {
      kind: 'form'
      value: unknown
      contentType: 'application/x-www-form-urlencoded' | 'multipart/form-data'
    }

/** Applies a mutation to a valid body. */
export const mutate = (valid: unknown, mutation: BodyMutation, hugeSize: number): Payload => {
  const body = clone(valid ?? {})
  const paths = pathsOf(body)
  const pick = (index: number) => (paths.length ? paths[index % paths.length] : undefined)
  const json = (value: unknown): Payload => ({
    kind: 'json',
    value,
    contentType: 'application/json',
  })
  switch (mutation.kind) {
    case 'valid':
      return json(body)
    case 'wrong-type':
    case 'odd-string': {
      const path = pick(mutation.at)
      if (!path) return json(mutation.value)
      setOwn(parentOf(body, path), path.at(-1)!, mutation.value)
      return json(body)
    }
    case 'missing': {
      const path = pick(mutation.at)
      if (path) {
        const parent = parentOf(body, path)
        if (Array.isArray(parent)) parent.splice(Number(path.at(-1)), 1)
        else delete parent[path.at(-1)!]
      }
      return json(body)
    }
    case 'extra': {
      const objects = [[], ...paths].filter((path) => {
        const node = nodeAt(body, path)
        return (
          node !== null &&
          typeof node === 'object' &&
          !Array.isArray(node) &&
          !(node instanceof PoolRef)
        )
      })
      const node = objects.length ? nodeAt(body, objects[mutation.at % objects.length]) : undefined
      if (node !== null && typeof node === 'object') setOwn(node, mutation.key, mutation.value)
      return json(body)
    }
    case 'content-type':
      if (
        mutation.type === 'application/x-www-form-urlencoded' ||
        mutation.type === 'multipart/form-data'
      )
        return { kind: 'form', value: body, contentType: mutation.type }
      return { kind: 'text', text: JSON.stringify(body), contentType: mutation.type }
    case 'malformed':
      return { kind: 'text', text: mutation.text, contentType: 'application/json' }
    case 'huge': {
      if (mutation.where === 'body')
        return {
          kind: 'text',
          text: `{"a":"${'x'.repeat(hugeSize)}"}`,
          contentType: 'application/json',
        }
      const path = pick(mutation.at)
      if (!path) return json({ a: 'x'.repeat(hugeSize / 2) })
      setOwn(parentOf(body, path), path.at(-1)!, 'x'.repeat(hugeSize / 2))
      return json(body)
    }
    case 'deep': {
      const path = pick(mutation.at)
      const marker = '"__deep_marker__"'
      if (path) setOwn(parentOf(body, path), path.at(-1)!, '__deep_marker__')
      const text = path ? JSON.stringify(body) : marker
      return {
        kind: 'text',
        text: text.replace(marker, nest(mutation.depth, mutation.shape)),
        contentType: 'application/json',
      }
    }
    case 'top-level':
      return json(mutation.value)
  }
}

/** A path parameter: an id the run has seen, a fresh UUID, or something that is not one. */
export const paramValue = fc.oneof(
  { weight: 5, arbitrary: poolRef },
  { weight: 1, arbitrary: fc.uuid({ version: 4 }) },
  { weight: 1, arbitrary: fc.uuid({ version: 4 }).map((id) => id.toUpperCase()) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'me',
      'not-a-uuid',
      '0',
      '-1',
      '..',
      '%2e%2e',
      '%00',
      '%E0%A4%A',
      'a'.repeat(300),
      "1' or '1'='1",
      '😀',
      '00000000-0000-0000-0000-000000000000',
    ),
  },
)

/** Percent-encodes as a browser would, and a lone surrogate as the bytes a hostile client sends. */
export const encodeLoosely = (text: string): string =>
  Array.from(text, (char) =>
    /[\uD800-\uDFFF]/.test(char) ? '%ED%A0%80' : encodeURIComponent(char),
  ).join('')

/** Query-string pieces, raw (already encoded or deliberately not). */
export const queryFor = (operation: Operation): fc.Arbitrary<string> => {
  const options = operation.route.query ?? {}
  const contains = Object.keys(options.contain ?? {})
  const filters = Object.keys(options.filter ?? {})
  const sorts = [...(options.sort ?? [])]
  const e = encodeLoosely
  const name = (names: string[]) =>
    names.length
      ? fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 8 }))
      : fc.string({ maxLength: 8 })
  const anyText = fc.oneof(oddString, fc.constantFrom('1', '0', 'true', 'false', 'yes', ''))
  const piece = fc.oneof(
    fc
      .tuple(name(contains), fc.constantFrom('1', '0', 'true', 'x', ''))
      .map(([n, v]) => `contain[${e(n)}]=${e(v)}`),
    fc.tuple(name(filters), anyText).map(([n, v]) => `filter[${e(n)}]=${e(v)}`),
    fc
      .tuple(name(filters), fc.oneof(poolRef, anyText))
      .map(([n, v]) =>
        v instanceof PoolRef ? `filter[${e(n)}][]=@pool${v.index}` : `filter[${e(n)}][]=${e(v)}`,
      ),
    fc
      .tuple(name(sorts), fc.constantFrom('', ' ASC', ' DESC', ' desc; select 1', ' SIDEWAYS'))
      .map(([n, d]) => `order[]=${e(n + d)}`),
    fc
      .tuple(name(sorts), fc.constantFrom('ASC', 'DESC', 'up'))
      .map(([n, d]) => `sort=${e(n)}&direction=${e(d)}`),
    fc
      .constantFrom('page', 'limit')
      .chain((key) =>
        fc
          .constantFrom('1', '2', '0', '-1', 'abc', '1e400', '99999999999999999999', '1.5', '')
          .map((v) => `${key}=${e(v)}`),
      ),
    fc.constantFrom(
      'contain=1',
      'contain[]=x',
      'contain[a][b][c][d][e]=1',
      'filter=x',
      'filter[search]=',
      'filter[search][a][b]=1',
      'order=Users.username',
      'order[a]=b',
      'page[]=1',
      'limit[]=1',
      'api-version=v1',
      'api-version=v2',
      'contain[__proto__][x]=1',
      'filter[constructor][prototype][x]=1',
      '%',
      '%zz=1',
      'a=%E0%A4%A',
      `filter[has-id][]=${Array.from({ length: 250 }, () => crypto.randomUUID()).join('&filter[has-id][]=')}`,
      Array.from({ length: 1200 }, (_, i) => `p${i}=1`).join('&'),
      'x=\u0000',
      'x=%00',
    ),
  )
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    {
      weight: 5,
      arbitrary: fc.array(piece, { minLength: 1, maxLength: 4 }).map((pieces) => pieces.join('&')),
    },
  )
}
