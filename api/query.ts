// passbolt's query-string grammar: contain[...], filter[...], ordering and pagination, checked
// against what each route declares. Unknown contains and filters are dropped silently, as
// passbolt does; malformed values are 400s.
import qs from 'qs'
import { badRequest, messages } from './errors.ts'
import type { ContainSpec } from './plugin.ts'
import { isUuid } from './uuid.ts'

export type FilterKind =
  | 'boolean'
  | 'uuid'
  | 'uuids'
  | 'parent'
  | 'search'
  | 'timestamp'
  | 'datetime'
  | 'string'
  | 'integer'

export interface QueryOptions {
  /** Contains this route accepts, each with how it is loaded; others are dropped silently. */
  contain?: Readonly<Record<string, ContainSpec>>
  /** Filters this route accepts, by kind; others are dropped silently. */
  filter?: Readonly<Record<string, FilterKind>>
  /** Sortable `Model.field` names; the first is the default. */
  sort?: readonly string[]
  paginate?: boolean
}

export interface ParsedQuery {
  contain: Record<string, boolean>
  filter: Record<string, unknown>
  order: { field: string; direction: 'asc' | 'desc' }[]
  page: number
  /** null: no limit asked for (passbolt then returns everything). */
  limit: number | null
}

const ALWAYS_ARRAY = new Set([
  'search',
  'has-parent',
  'has-id',
  'has-groups',
  'has-managers',
  'has-users',
  'has-access',
])
const MAX_LIMIT = 1_000_000

/** `1`/`true` and `0`/`false`, any case; anything else is undefined. */
const toBoolean = (value: unknown): boolean | undefined => {
  if (typeof value === 'boolean') return value
  if (typeof value !== 'string') return undefined
  const v = value.toLowerCase()
  return v === '1' || v === 'true' ? true : v === '0' || v === 'false' ? false : undefined
}

/** Values one query parameter may list; qs makes a longer list an object with numbered keys. */
const MAX_LIST = 200

/** How query strings and URL-encoded bodies nest (`filter[has-id][]`, `profile[first_name]`). */
export const QUERY_STRING_OPTIONS = {
  depth: 3,
  arrayLimit: MAX_LIST,
  parameterLimit: 1000,
  allowPrototypes: false,
} as const

export const parseQueryString = (raw: string): Record<string, unknown> =>
  qs.parse(raw, QUERY_STRING_OPTIONS) as Record<string, unknown>

/**
 * The contains in force: the route's defaults unless turned off, those asked for, and what
 * those need. Only declared names appear.
 */
const parseContain = (
  value: unknown,
  declared: Readonly<Record<string, ContainSpec>> = {},
): Record<string, boolean> => {
  if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
    throw badRequest('Invalid query string. The contain parameter should be an array.')
  const contain: Record<string, boolean> = {}
  for (const [name, spec] of Object.entries(declared)) if (spec.default) contain[name] = true
  for (const [rawName, rawValue] of Object.entries(value ?? {})) {
    const name = rawName === 'LastLoggedIn' ? 'last_logged_in' : rawName
    const flag = toBoolean(rawValue)
    if (flag === undefined)
      throw badRequest(`Invalid contain. "${String(rawValue)}" is not a valid contain value.`)
    if (Object.hasOwn(declared, name)) contain[name] = flag
  }
  for (const [name, on] of Object.entries(contain))
    if (on) for (const required of declared[name].requires ?? []) contain[required] = true
  return contain
}

const invalidFilter = (name: string, value: unknown) =>
  badRequest(
    `Invalid filter. "${Array.isArray(value) ? value.join(',') : String(value)}" is not a valid value for filter ${name}.`,
  )

const checkFilter = (name: string, kind: FilterKind, value: unknown): unknown => {
  const list = (v: unknown) => (Array.isArray(v) ? v : [v])
  switch (kind) {
    case 'boolean': {
      const flag = toBoolean(value)
      if (flag === undefined) throw invalidFilter(name, value)
      return flag
    }
    case 'uuid':
      if (!isUuid(value)) throw invalidFilter(name, value)
      return value.toLowerCase()
    case 'uuids': {
      const ids = list(value)
      if (!ids.every(isUuid)) throw invalidFilter(name, value)
      return ids.map((id) => id.toLowerCase())
    }
    case 'parent':
      // `false`/`0` means the root folder.
      return list(value).map((v) => {
        if (v === 'false' || v === '0') return null
        if (!isUuid(v)) throw invalidFilter(name, value)
        return v.toLowerCase()
      })
    case 'search': {
      const first = list(value)[0]
      if (typeof first !== 'string' || [...first].length < 1 || [...first].length > 64)
        throw invalidFilter(name, value)
      return [first]
    }
    case 'timestamp':
      if (typeof value !== 'string' || !/^\d{1,12}$/.test(value)) throw invalidFilter(name, value)
      return new Date(Number(value) * 1000)
    case 'datetime': {
      const date = typeof value === 'string' ? new Date(value) : undefined
      if (!date || Number.isNaN(date.getTime())) throw invalidFilter(name, value)
      return date
    }
    case 'integer':
      if (typeof value !== 'string' || !/^-?\d{1,9}$/.test(value)) throw invalidFilter(name, value)
      return Number(value)
    case 'string':
      if (typeof value !== 'string' || value.length === 0 || value.length > 1024)
        throw invalidFilter(name, value)
      return value
  }
}

const parseFilter = (
  query: Record<string, unknown>,
  allowed: Readonly<Record<string, FilterKind>> = {},
) => {
  const value = query.filter
  if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
    throw badRequest('Invalid query string. The filter parameter should be an array.')
  const raw: Record<string, unknown> = { ...((value as Record<string, unknown>) ?? {}) }
  // Legacy spellings still sent by clients.
  if (typeof query.modified_after === 'string') raw['modified-after'] ??= query.modified_after
  if (query.keywords !== undefined) raw.search ??= query.keywords
  if (raw.keywords !== undefined) raw.search ??= raw.keywords
  const filter: Record<string, unknown> = {}
  for (const [name, rawValue] of Object.entries(raw)) {
    const kind = allowed[name]
    if (!kind) continue
    let v = rawValue
    // No filter takes an object: this is a list longer than qs keeps as an array.
    if (typeof v === 'object' && v !== null && !Array.isArray(v))
      throw badRequest(`Invalid filter. The filter ${name} accepts at most ${MAX_LIST} values.`)
    if (typeof v === 'string' && name.endsWith('s') && !name.startsWith('is-') && kind !== 'search')
      v = v.split(',')
    if (ALWAYS_ARRAY.has(name) && !Array.isArray(v)) v = [v]
    filter[name] = checkFilter(name, kind, v)
  }
  return filter
}

/** `Resource.modified` (legacy, singular model) to `Resources.modified`. */
const pluralizeModel = (field: string) => {
  const [model, column] = field.split('.')
  if (!column) return field
  return `${model.endsWith('s') ? model : `${model}s`}.${column}`
}

const parseOrder = (query: Record<string, unknown>, allowed: readonly string[] = []) => {
  const requested: { field: string; direction: string }[] = []
  if (typeof query.sort === 'string')
    requested.push({
      field: query.sort,
      direction: typeof query.direction === 'string' ? query.direction : 'asc',
    })
  else if (query.sort && typeof query.sort === 'object')
    for (const [field, direction] of Object.entries(query.sort))
      requested.push({ field, direction: String(direction) })
  const legacy =
    query.order === undefined ? [] : Array.isArray(query.order) ? query.order : [query.order]
  for (const entry of legacy) {
    const [field, direction = 'asc'] = String(entry).trim().split(/\s+/)
    requested.push({ field: pluralizeModel(field), direction })
  }
  return requested.map(({ field, direction }) => {
    if (!allowed.includes(field))
      throw badRequest(`Invalid order. "${field}" is not in the list of allowed order.`)
    const dir = direction.toLowerCase()
    if (dir !== 'asc' && dir !== 'desc')
      throw badRequest(`Invalid order. "${direction}" is not a valid order.`)
    return { field, direction: dir as 'asc' | 'desc' }
  })
}

const positive = (value: unknown, name: string, max: number): number | undefined => {
  if (value === undefined) return undefined
  if (
    typeof value !== 'string' ||
    !/^\d{1,7}$/.test(value) ||
    Number(value) < 1 ||
    Number(value) > max
  )
    throw badRequest(`Invalid pagination. "${String(value)}" is not a valid ${name}.`)
  return Number(value)
}

/** Parses and checks a request's query against a route's declaration. */
export const parseQuery = (
  query: Record<string, unknown>,
  options: QueryOptions = {},
): ParsedQuery => {
  const version = query['api-version']
  if (version === 'v1' || version === '1') throw badRequest(messages.apiV1)
  const order = parseOrder(query, options.sort)
  return {
    contain: parseContain(query.contain, options.contain),
    filter: parseFilter(query, options.filter),
    order:
      order.length || !options.sort?.length
        ? order
        : [{ field: options.sort[0], direction: 'asc' }],
    page: options.paginate ? (positive(query.page, 'page', MAX_LIMIT) ?? 1) : 1,
    limit: options.paginate ? (positive(query.limit, 'limit', MAX_LIMIT) ?? null) : null,
  }
}
