// The fixed pipeline every route runs: query -> params -> CSRF -> authenticate -> guards ->
// role -> body -> [transaction: access policy -> validation -> handler -> contains] -> answer.
import type { AppContext } from '../app.ts'
import { checkCsrf } from '../auth/csrf.ts'
import type { AuthUser } from '../auth/user.ts'
import { readBody, refuseNulCharacters } from '../body.ts'
import { runInTransaction } from '../db/transaction.ts'
import { DEFAULT_SUCCESS_MESSAGE, JsonRowStream } from '../envelope.ts'
import { forbidden, HttpError, messages, unauthorized } from '../errors.ts'
import { Reply, type RequestContext, type Route } from '../plugin.ts'
import { parseQuery, parseQueryString } from '../query.ts'
import type { ThrottleKey } from '../throttle.ts'
import { isUuid } from '../uuid.ts'
import { validate } from '../validation.ts'
import { checkAnswer, checkedRows, checksAnswers } from './answer-check.ts'
import { loadContains } from './contain.ts'
import { requestContext } from './request-context.ts'
import { type Context, NO_STORE, sendEnvelope } from './respond.ts'

const authenticate = async (
  app: AppContext,
  request: RequestContext,
): Promise<AuthUser | undefined> => {
  for (const plugin of app.plugins) {
    if (!plugin.authenticate) continue
    const user = await plugin.authenticate(request, app)
    if (user) return user
  }
  return undefined
}

/** Methods that change nothing. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** passbolt lower-cases UUIDs in paths before validating them. */
const lowerCaseUuids = (params: Record<string, string>) =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, isUuid(v) ? v.toLowerCase() : v]))

const throttleKeys = (
  app: AppContext,
  route: Route,
  request: RequestContext,
  account: string | undefined,
): ThrottleKey[] => [
  { key: `ip|${request.ip}`, limit: app.config.authRateLimitPerAddress },
  ...(account
    ? [{ key: `account|${route.action}|${account.toLowerCase()}`, limit: app.config.authRateLimit }]
    : []),
]

const writeReply = (ctx: Context, route: Route, reply: Reply) => {
  for (const [name, value] of Object.entries(reply.options.headers ?? {})) ctx.set(name, value)
  if (reply.options.redirect) {
    ctx.status = 302
    ctx.set('Cache-Control', NO_STORE)
    ctx.redirect(reply.options.redirect)
    return
  }
  // Handlers answer exactly what their schema declares; outside production every answer is
  // held to it (see answer-check.ts), so production sends the body as it is.
  let shaped = reply.body
  if (route.response && shaped !== undefined && shaped !== null && checksAnswers()) {
    if (shaped instanceof JsonRowStream) shaped = checkedRows(route, route.response, shaped)
    else checkAnswer(route, route.response, shaped)
  }
  if (reply.options.html || reply.options.binary) {
    ctx.status = reply.options.status ?? 200
    ctx.type = reply.options.binary ?? 'text/html; charset=utf-8'
    if (!ctx.response.get('Cache-Control')) ctx.set('Cache-Control', NO_STORE)
    ctx.body = reply.options.binary ? (reply.body as Buffer) : String(reply.body)
    return
  }
  if (reply.options.raw) {
    ctx.status = reply.options.status ?? 200
    ctx.type = 'application/json'
    ctx.set('Cache-Control', NO_STORE)
    ctx.body = JSON.stringify(shaped)
    return
  }
  const message = reply.options.message ?? route.message ?? DEFAULT_SUCCESS_MESSAGE
  sendEnvelope(ctx, reply.options.status ?? 200, message, shaped ?? null, reply.options)
}

export const routeMiddleware = (app: AppContext, route: Route) => async (ctx: Context) => {
  ctx.state.action = route.action
  ctx.state.routePath = route.path
  const rawQuery = parseQueryString(ctx.querystring)
  const pathParams = (ctx as unknown as { params: Record<string, string> }).params ?? {}
  refuseNulCharacters(rawQuery)
  refuseNulCharacters(pathParams)
  const query = parseQuery(rawQuery, route.query)
  const rawParams = lowerCaseUuids(pathParams)
  const params = route.params ? validate(route.params, rawParams) : rawParams
  const request = requestContext(ctx, app)
  if (route.csrf !== false) checkCsrf(request)
  const user = await authenticate(app, request)
  request.state.user = user
  if (user) for (const plugin of app.plugins) await plugin.guard?.({ user, request, route }, app)
  if (route.auth !== 'public' && !user) throw unauthorized()
  if (route.auth === 'admin' && user?.role !== 'admin') throw forbidden(messages.adminOnly)
  const rawBody =
    ctx.method === 'GET' || ctx.method === 'HEAD'
      ? undefined
      : await readBody(
          ctx,
          app.config.bodyLimit,
          typeof route.multipart === 'function' ? route.multipart(app) : route.multipart,
        )

  let keys: ThrottleKey[] = []
  if (route.throttle) {
    keys = throttleKeys(app, route, request, undefined)
    await app.throttle.check(keys)
  }
  const run = async (em: RequestContext['em']) => {
    let granted: unknown
    if (route.permission !== 'none') {
      // The loader refuses a policy on a public route, and a guest was refused above.
      if (!user) throw unauthorized()
      granted = await route.permission.check({ user, params, rawBody, em, app })
    }
    const body = route.body ? validate(route.body, rawBody ?? {}, route.validationMessage) : rawBody
    if (route.throttle?.account) {
      keys = throttleKeys(app, route, request, route.throttle.account({ params, body }))
      await app.throttle.check(keys)
    }
    const result = await route.handler({
      params,
      query,
      body,
      user,
      em,
      app,
      headers: ctx.headers,
      request,
      granted,
    })
    const reply = result instanceof Reply ? result : new Reply(result)
    await loadContains(route, reply.body, { em, user, app, contain: query.contain })
    return reply
  }
  let reply: Reply
  try {
    reply = route.transaction ? await runInTransaction(request.em, run) : await run(request.em)
  } catch (error) {
    if (
      route.throttle &&
      error instanceof HttpError &&
      error.status >= 400 &&
      error.status < 500 &&
      error.status !== 429
    )
      await app.throttle.fail(keys)
    throw error
  } finally {
    // Whatever the change committed, the client's next request must see it: its notification
    // reaches this process's caches before the answer goes out.
    if (!SAFE_METHODS.has(ctx.method)) await app.changes.caughtUp()
  }
  try {
    writeReply(ctx, route, reply)
  } catch (error) {
    // A list read as it is sent holds a database connection until its stream ends or is
    // destroyed; an answer that never became the stream must let go of it here.
    if (reply.body instanceof JsonRowStream) await reply.body.batches.close()
    throw error
  }
}
