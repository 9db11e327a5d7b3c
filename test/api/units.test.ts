// Pure parts of the core: action ids, dates, the query grammar and validation trees.
import test from 'ava'
import { z } from 'zod'
import { actionId, formatDate } from '../../api/envelope.ts'
import { HttpError } from '../../api/errors.ts'
import { parseQuery, parseQueryString } from '../../api/query.ts'
import { validate } from '../../api/validation.ts'

test('action ids are passbolt UUIDv5s of Controller.action', (t) => {
  // Action ids the reference server reports for these actions.
  t.is(actionId('SettingsIndex.index'), 'bef9f3ca-86ef-5c6a-9b38-320e03ceb5df')
  t.is(actionId('AuthLogin.loginPost'), 'a3c19ad2-8920-5395-86d0-8567cb34f382')
  t.is(actionId('ResourcesIndex.index'), 'c506210f-7866-5691-8fc1-58772e8f49f1')
})

test('dates are YYYY-MM-DDTHH:MM:SS+00:00', (t) => {
  t.is(formatDate(new Date('2024-07-03T12:52:06.789Z')), '2024-07-03T12:52:06+00:00')
  t.is(formatDate(null), null)
})

const query = (raw: string, options = {}) => parseQuery(parseQueryString(raw), options)
const fails = (
  t: import('ava').ExecutionContext,
  raw: string,
  options: object,
  message: string,
) => {
  const error = t.throws(() => query(raw, options), { instanceOf: HttpError })
  t.deepEqual([error?.status, error?.message], [400, message])
}

test('contain: 1/true/0/false in any case, unknown names dropped, bad values refused', (t) => {
  t.deepEqual(
    query('contain[creator]=1&contain[modifier]=FALSE&contain[secret]=1', {
      contain: { creator: {}, modifier: {} },
    }).contain,
    {
      creator: true,
      modifier: false,
    },
  )
  t.deepEqual(query('contain[LastLoggedIn]=1', { contain: { last_logged_in: {} } }).contain, {
    last_logged_in: true,
  })
  fails(
    t,
    'contain[creator]=yes',
    { contain: { creator: {} } },
    'Invalid contain. "yes" is not a valid contain value.',
  )
  fails(t, 'contain=creator', {}, 'Invalid query string. The contain parameter should be an array.')
})

test('filters: arrays, comma lists, booleans, UUIDs, the root parent, search, legacy names', (t) => {
  const id = '6B1C2D9A-1F7E-4C7A-9F0E-2B3C4D5E6F70'
  const options = {
    filter: {
      'has-id': 'uuids',
      'has-users': 'uuids',
      'is-shared': 'boolean',
      'has-parent': 'parent',
      search: 'search',
      'modified-after': 'timestamp',
    },
  } as const
  const parsed = query(
    `filter[has-id][]=${id}&filter[has-users]=${id},${id}&filter[is-shared]=0&filter[has-parent]=false&keywords=abc&modified_after=1700000000&filter[other]=x`,
    options,
  )
  t.deepEqual(parsed.filter, {
    'has-id': [id.toLowerCase()],
    'has-users': [id.toLowerCase(), id.toLowerCase()],
    'is-shared': false,
    'has-parent': [null],
    search: ['abc'],
    'modified-after': new Date(1_700_000_000_000),
  })
  fails(
    t,
    'filter[has-id][]=nope',
    options,
    'Invalid filter. "nope" is not a valid value for filter has-id.',
  )
  fails(
    t,
    `filter[search]=${'x'.repeat(65)}`,
    options,
    `Invalid filter. "${'x'.repeat(65)}" is not a valid value for filter search.`,
  )
  fails(t, 'filter=abc', options, 'Invalid query string. The filter parameter should be an array.')
})

test('80 has-id values in one query are kept (the extension sends chunks of 80)', (t) => {
  const ids = Array.from(
    { length: 80 },
    (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  )
  const parsed = query(ids.map((id) => `filter[has-id][]=${id}`).join('&'), {
    filter: { 'has-id': 'uuids' },
  })
  t.deepEqual(parsed.filter['has-id'], ids)
})

test('ordering: sort/direction, legacy order[] with singular models, default, refusals', (t) => {
  const options = { sort: ['Resources.name', 'Resources.modified'] }
  t.deepEqual(query('', options).order, [{ field: 'Resources.name', direction: 'asc' }])
  t.deepEqual(query('sort=Resources.modified&direction=DESC', options).order, [
    { field: 'Resources.modified', direction: 'desc' },
  ])
  t.deepEqual(query('order[]=Resource.modified%20DESC', options).order, [
    { field: 'Resources.modified', direction: 'desc' },
  ])
  fails(
    t,
    'sort=Resources.secret',
    options,
    'Invalid order. "Resources.secret" is not in the list of allowed order.',
  )
  fails(t, 'sort=Resources.name&direction=up', options, 'Invalid order. "up" is not a valid order.')
})

test('pagination: page and limit on paginated routes only, positive integers', (t) => {
  t.deepEqual(query('page=3&limit=20', { paginate: true }), {
    contain: {},
    filter: {},
    order: [],
    page: 3,
    limit: 20,
  })
  t.deepEqual(query('', { paginate: true }).limit, null)
  t.is(query('page=3', {}).page, 1)
  fails(t, 'page=0', { paginate: true }, 'Invalid pagination. "0" is not a valid page.')
  fails(t, 'limit=abc', { paginate: true }, 'Invalid pagination. "abc" is not a valid limit.')
})

test('hostile query strings stay bounded and refuse prototype keys', (t) => {
  const parsed = parseQueryString(
    '__proto__[polluted]=1&constructor[prototype][x]=1&a[b][c][d][e][f]=1',
  )
  t.is(({} as Record<string, unknown>).polluted, undefined)
  t.false(Object.keys(parsed).includes('__proto__'))
  t.false(Object.keys(parsed).includes('constructor'))
  // Nesting stops at depth 3; the rest stays one literal key.
  t.deepEqual(parsed.a, { b: { c: { d: { '[e][f]': '1' } } } })
})

test('validation errors nest by field and rule; schema messages win over defaults', (t) => {
  const schema = z.object({
    name: z.string().min(1).max(3),
    kind: z.enum(['a', 'b']),
    flag: z.boolean(),
    rows: z.array(z.object({ id: z.uuid({ error: 'Row ids are UUIDs.' }) })),
  })
  const error = t.throws(
    () => validate(schema, { name: 'long', kind: 'c', flag: 'yes', rows: [{ id: '1' }] }),
    { instanceOf: HttpError },
  )
  t.deepEqual(error?.body, {
    name: { maxLength: 'The value should be 3 characters long maximum.' },
    kind: { inList: 'The value should be one of "a", "b".' },
    flag: { boolean: 'The value should be a boolean.' },
    rows: { '0': { id: { uuid: 'Row ids are UUIDs.' } } },
  })
})

test('logged errors keep database statements (and the values in them) out of the log', async (t) => {
  const { loggableError } = await import('../../api/http/log-safety.ts')
  const database = Object.assign(
    new Error("insert into authentication_tokens values ('secret-token')"),
    { name: 'UniqueConstraintViolationException', code: '23505' },
  )
  const logged = loggableError(database)
  t.like(logged, { type: 'UniqueConstraintViolationException', code: '23505' })
  t.false(JSON.stringify(logged).includes('secret-token'))
  t.regex(String(logged.stack), /^\s+at /)
  const plain = loggableError(new TypeError('x is not a function'))
  t.is(plain.type, 'TypeError')
  t.is(plain.message, 'x is not a function')
})
