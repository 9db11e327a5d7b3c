// The fuzzing run: for each operation, cases drawn with fast-check from a seed (identity, path
// parameters, query string, body and one mutation of it), sent in an interleaved order so that
// ids created by one route are reused by the others; sign-ins probed after administrators'
// writes; every answer and the server's error log checked as it comes.
import fc from 'fast-check'
import qs from 'qs'
import type { TestApi } from '../../helpers/api.ts'
import { gpgAuthLogin, TestClient } from '../../helpers/client.ts'
import { jwtLogin } from '../../helpers/jwt.ts'
import { problemsOf } from './checks.ts'
import {
  type BodyMutation,
  bodyMutation,
  encodeLoosely,
  mutate,
  type Payload,
  PoolRef,
  paramValue,
  queryFor,
  validValue,
} from './generators.ts'
import { challengeAllowed, type Identity, identitiesFor } from './identities.ts'
import { type Operation, operationsOf } from './operations.ts'
import { JWT_DOMAIN, type World } from './world.ts'

export interface FuzzOptions {
  seed: number
  /** Cases per operation (each with one identity). */
  casesPerOperation: number
  /** Body size past the server's limit, in bytes, for the `huge` mutation. */
  hugeSize: number
  /** Called every 500 requests. */
  progress?: (figures: FuzzFigures) => void
}

export interface Finding {
  index: number
  operation: string
  identity: string
  request: string
  status: number
  problems: string[]
  answer: string
}

export interface FuzzFigures {
  seed: number
  requests: number
  operations: number
  operationsCovered: number
  byStatus: Record<string, number>
  fiveHundreds: number
  signInProbes: number
  sessionsRenewed: number
  findings: number
  seconds: number
}

interface Case {
  identity: number
  params: unknown[]
  query: string
  useExample: boolean
  valid: unknown
  mutation: BodyMutation
}

const decodeLoosely = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/gi

const caseArbitrary = (
  operation: Operation,
  identities: number,
  resolve: (schema: Record<string, unknown>) => Record<string, unknown>,
): fc.Arbitrary<Case> =>
  fc.record({
    identity: fc.nat({ max: identities - 1 }),
    params: fc.array(paramValue, {
      minLength: operation.params.length,
      maxLength: operation.params.length,
    }),
    query: queryFor(operation),
    useExample: fc.boolean(),
    valid: operation.bodySchema
      ? validValue(operation.bodySchema, resolve)
      : fc.constant(undefined),
    mutation:
      operation.route.method === 'GET' ? fc.constant({ kind: 'valid' as const }) : bodyMutation,
  })

export const runFuzz = async (api: TestApi, world: World, options: FuzzOptions) => {
  const started = performance.now()
  const { operations, resolve } = operationsOf(api.app)
  const identities = await identitiesFor(api.url, JWT_DOMAIN, {
    user: world.user,
    admin: world.admin,
    other: world.members[2],
  })
  const pool: string[] = [...world.seedIds]
  const known = new Set(pool)
  const remember = (text: string) => {
    for (const id of text.match(UUID) ?? []) {
      const lower = id.toLowerCase()
      if (!known.has(lower) && !world.protectedIds.has(lower)) {
        known.add(lower)
        pool.push(lower)
      }
    }
  }
  const fromPool = (ref: PoolRef) =>
    pool.length ? pool[ref.index % pool.length] : crypto.randomUUID()
  const resolveRefs = (value: unknown): unknown => {
    if (value instanceof PoolRef) return fromPool(value)
    if (value === null || typeof value !== 'object') return value
    if (Array.isArray(value)) return value.map(resolveRefs)
    const out: Record<string, unknown> = {}
    for (const [key, child] of Object.entries(value))
      Object.defineProperty(out, key, {
        value: resolveRefs(child),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    return out
  }
  const arbitraries = new Map(
    operations.map((operation) => [
      operation,
      caseArbitrary(operation, identities.length, resolve),
    ]),
  )

  // Each operation's cases, interleaved in an order the seed decides.
  const schedule = operations.flatMap((operation) =>
    Array.from({ length: options.casesPerOperation }, () => operation),
  )
  const order = fc.sample(
    fc.shuffledSubarray(
      schedule.map((_, i) => i),
      { minLength: schedule.length },
    ),
    {
      seed: options.seed,
      numRuns: 1,
    },
  )[0]

  const findings: Finding[] = []
  const figures: FuzzFigures = {
    seed: options.seed,
    requests: 0,
    operations: operations.length,
    operationsCovered: 0,
    byStatus: {},
    fiveHundreds: 0,
    signInProbes: 0,
    sessionsRenewed: 0,
    findings: 0,
    seconds: 0,
  }
  const covered = new Set<string>()
  const recent: string[] = []
  const baseline = {
    object: Object.getOwnPropertyNames(Object.prototype).join(','),
    array: Object.getOwnPropertyNames(Array.prototype).join(','),
  }
  let logsSeen = api.logs.length
  let sinceProbe = 0

  /** Signs the identity in again if its session ended; a failure to is a finding. */
  const renew = async (identity: Identity, index: number): Promise<boolean> => {
    try {
      if (await identity.ensure()) figures.sessionsRenewed++
      return true
    } catch (error) {
      findings.push({
        index,
        operation: 'sign-in',
        identity: identity.name,
        request: recent.join(' | '),
        status: 0,
        problems: [(error as Error).message],
        answer: '',
      })
      return false
    }
  }

  const probeSignIns = async (index: number, reason: string) => {
    figures.signInProbes++
    // Sign-in challenges are limited per account and minute: the probes take turns.
    const prober = world.members.filter((m) => m !== world.admin)[figures.signInProbes % 3]
    sinceProbe = 0
    await challengeAllowed(api.url, prober)
    const probe = new TestClient(api.url)
    const stage1 = await probe.postForm('/auth/login.json', {
      'data[gpg_auth][keyid]': prober.fingerprint,
    })
    const { stage2 } = stage1.headers.get('x-gpgauth-user-auth-token')
      ? await gpgAuthLogin(new TestClient(api.url), prober).catch(async (error: Error) => {
          const again = await new TestClient(api.url).postForm('/auth/login.json', {
            'data[gpg_auth][keyid]': prober.fingerprint,
          })
          return {
            stage2: {
              ...again,
              text: `${error.message}; stage 1 again: ${again.status} ${again.text}`,
            },
          }
        })
      : { stage2: stage1 }
    const jwt = await jwtLogin(new TestClient(api.url), world.admin.id, world.admin, JWT_DOMAIN)
    const problems = [
      ...(stage2.json?.header?.status === 'success' || stage2.status === 429
        ? []
        : [`GPGAuth sign-in answered ${stage2.status}`]),
      ...(jwt.answer ? [] : [`JWT sign-in answered ${jwt.response.status}`]),
    ]
    if (problems.length)
      findings.push({
        index,
        operation: 'sign-in probe',
        identity: reason,
        request: recent.join(' | '),
        status: stage2.status,
        problems,
        answer: `${stage2.text.slice(0, 300)} ${jwt.response.text.slice(0, 300)}`,
      })
  }

  for (const [position, slot] of order.entries()) {
    const operation = schedule[slot]
    const index = position
    const drawn = fc.sample(arbitraries.get(operation)!, {
      seed: options.seed + index + 1,
      numRuns: 1,
    })[0]
    const identity: Identity = identities[drawn.identity]
    if (identity.signedIn && position % 40 === 0 && !(await renew(identity, index))) continue

    const route = operation.route
    let path = route.path
    for (const [i, name] of operation.params.entries()) {
      const value = drawn.params[i]
      path = path.replace(`{${name}}`, value instanceof PoolRef ? fromPool(value) : String(value))
    }
    const query = drawn.query.replace(/@pool(\d+)/g, (_, n) => fromPool(new PoolRef(Number(n))))
    const url = query ? `${path}?${query}` : path
    const valid = resolveRefs(
      drawn.useExample && operation.example !== undefined ? operation.example : drawn.valid,
    )
    const payload: Payload =
      route.method === 'GET' ? { kind: 'none' } : mutate(valid, drawn.mutation, options.hugeSize)
    const headers: Record<string, string> = { ...identity.headers() }
    let body: BodyInit | undefined
    if (payload.kind === 'json') {
      body = JSON.stringify(payload.value)
      headers['content-type'] = payload.contentType
    } else if (payload.kind === 'text') {
      body = payload.text
      if (payload.contentType) headers['content-type'] = payload.contentType
    } else if (payload.kind === 'form') {
      const encoded = qs.stringify(payload.value ?? {}, {
        encoder: (text) => encodeLoosely(String(text)),
      })
      if (payload.contentType === 'multipart/form-data') {
        const form = new FormData()
        for (const pair of encoded.split('&').filter(Boolean)) {
          const [name, value = ''] = pair.split('=')
          form.append(decodeLoosely(name), decodeLoosely(value))
        }
        body = form
      } else {
        body = encoded
        headers['content-type'] = payload.contentType
      }
    }
    const summary = `${route.method} ${url.slice(0, 200)} [${drawn.mutation.kind}] ${typeof body === 'string' ? body.slice(0, 200) : ''}`
    recent.push(summary)
    if (recent.length > 5) recent.shift()

    let answer: Awaited<ReturnType<TestClient['fetch']>>
    try {
      answer = await identity.client().fetch(url, {
        method: route.method,
        headers,
        body,
        csrf: identity.csrf,
        signal: AbortSignal.timeout(30_000),
      })
    } catch (error) {
      findings.push({
        index,
        operation: operation.name,
        identity: identity.name,
        request: summary,
        status: 0,
        problems: [`no answer: ${(error as Error).message}`],
        answer: '',
      })
      continue
    }
    figures.requests++
    covered.add(operation.name)
    figures.byStatus[answer.status] = (figures.byStatus[answer.status] ?? 0) + 1
    if (answer.status >= 500) figures.fiveHundreds++
    const problems = problemsOf(answer)
    const errors = api.logs.slice(logsSeen).filter((line) => Number(line.level) >= 50)
    logsSeen = api.logs.length
    for (const line of errors)
      problems.push(`logged: ${JSON.stringify(line.err ?? line.msg).slice(0, 600)}`)
    if (
      Object.getOwnPropertyNames(Object.prototype).join(',') !== baseline.object ||
      Object.getOwnPropertyNames(Array.prototype).join(',') !== baseline.array
    )
      problems.push('a prototype of the server process was changed')
    if (problems.length)
      findings.push({
        index,
        operation: operation.name,
        identity: identity.name,
        request: summary,
        status: answer.status,
        problems,
        answer: answer.text.slice(0, 500),
      })
    if (answer.status < 300) remember(answer.text)
    if (answer.status === 401 && identity.signedIn) await renew(identity, index)
    sinceProbe++
    const adminWrite =
      route.method !== 'GET' && answer.status < 300 && identity.name.startsWith('administrator')
    if ((adminWrite && sinceProbe >= 25) || sinceProbe >= 300)
      await probeSignIns(index, `after ${summary}`)
    if (figures.requests % 500 === 0)
      options.progress?.({ ...figures, seconds: (performance.now() - started) / 1000 })
  }
  await probeSignIns(order.length, 'after the run')
  figures.operationsCovered = covered.size
  figures.findings = findings.length
  figures.seconds = Math.round((performance.now() - started) / 100) / 10
  return {
    figures,
    findings,
    uncovered: operations.filter((o) => !covered.has(o.name)).map((o) => o.name),
  }
}
