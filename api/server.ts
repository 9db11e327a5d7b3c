// The HTTP server: a Koa app with request ids, security headers, one error renderer that
// speaks the passbolt envelope, plugin middleware, and the routes of the assembled plugins
// behind a fixed pipeline (query -> params -> CSRF -> authenticate -> authorize -> body ->
// handler -> envelope).
import { randomUUID } from 'node:crypto'
import type { Server } from 'node:http'
import Router from '@koa/router'
import Koa from 'koa'
import type { AppContext } from './app.ts'
import { checkCsrf } from './auth/csrf.ts'
import type { AuthUser } from './auth/user.ts'
import { readBody } from './body.ts'
import { DEFAULT_SUCCESS_MESSAGE, envelope } from './envelope.ts'
import { forbidden, HttpError, messages, unauthorized } from './errors.ts'
import { Reply, type RequestContext, type Route } from './plugin.ts'
import { parseQuery, parseQueryString } from './query.ts'
import { Throttle } from './throttle.ts'
import { validate } from './validation.ts'

/** Fact sheet §1: the headers passbolt sets on every answer. */
const SECURITY_HEADERS: Record<string, string> = {
  'X-Permitted-Cross-Domain-Policies': 'all',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  'X-Download-Options': 'noopen',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; connect-src 'self'; base-uri 'self'; frame-src 'self'; frame-ancestors 'none'; form-action 'self'",
  'Permissions-Policy': 'unload=(*)',
}

interface State {
  requestId: string
  action: string
  request?: RequestContext
  user?: AuthUser
}

type Context = Koa.ParameterizedContext<State>

const UUID_PARAM = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

const send = (
  ctx: Context,
  status: number,
  message: string,
  body: unknown,
  options: Pick<Reply['options'], 'pagination' | 'outcome'> = {},
) => {
  ctx.status = status
  ctx.type = 'application/json'
  const payload = envelope({
    requestId: ctx.state.requestId,
    status,
    action: ctx.state.action,
    message,
    url: ctx.originalUrl,
    body,
    pagination: options.pagination,
  })
  if (options.outcome) payload.header.status = options.outcome
  ctx.body = JSON.stringify(payload)
}

/**
 * What of an unexpected error may reach the log: database errors quote the statement and its
 * values (tokens, keys), so only their class and SQL state are kept.
 */
export const loggableError = (error: unknown) => {
  if (!(error instanceof Error)) return { type: typeof error }
  const sqlState =
    (error as { code?: unknown; sqlState?: unknown }).code ??
    (error as { sqlState?: unknown }).sqlState
  if (sqlState !== undefined || error.name.endsWith('Exception'))
    return { type: error.name, code: sqlState }
  return { type: error.name, message: error.message, stack: error.stack }
}

/** The plugin-facing view of a Koa context, made once per request. */
const requestContext = (ctx: Context): RequestContext => {
  if (ctx.state.request) return ctx.state.request
  const request: RequestContext = {
    method: ctx.method,
    path: ctx.path,
    url: ctx.originalUrl,
    headers: ctx.headers,
    cookies: ctx.cookies as RequestContext['cookies'],
    ip: ctx.request.socket.remoteAddress ?? '',
    secure: ctx.secure,
    state: ctx.state as unknown as Record<string, unknown>,
    set: (field, value) => ctx.set(field, value),
    responseHeader: (field) => ctx.response.get(field) || undefined,
  }
  ctx.state.request = request
  return request
}

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

/** The per-route pipeline. */
const routeMiddleware =
  (app: AppContext, route: Route, throttle: Throttle) => async (ctx: Context) => {
    ctx.state.action = route.action
    const query = parseQuery(parseQueryString(ctx.querystring), route.query)
    // passbolt lower-cases UUIDs in paths before validating them.
    const rawParams = Object.fromEntries(
      Object.entries((ctx as unknown as { params: Record<string, string> }).params ?? {}).map(
        ([k, v]) => [k, UUID_PARAM.test(v) ? v.toLowerCase() : v],
      ),
    )
    const params = route.params ? validate(route.params, rawParams) : rawParams
    const request = requestContext(ctx)
    if (route.csrf !== false) checkCsrf(request)
    const user = await authenticate(app, request)
    ctx.state.user = user
    if (user) for (const plugin of app.plugins) await plugin.guard?.({ user, request, route }, app)
    if (route.auth !== 'public' && !user) throw unauthorized()
    if (route.auth === 'admin' && user?.role !== 'admin') throw forbidden(messages.adminOnly)
    const rawBody =
      ctx.method === 'GET' || ctx.method === 'HEAD'
        ? undefined
        : await readBody(ctx.req, app.config.bodyLimit, route.multipart)
    const body = route.body ? validate(route.body, rawBody ?? {}) : rawBody
    if (route.throttle) {
      const account = route.throttle.account?.({ params, body })
      throttle.hit([
        `${route.action}|ip|${request.ip}`,
        ...(account ? [`${route.action}|account|${account.toLowerCase()}`] : []),
      ])
    }
    const result = await route.handler({
      params,
      query,
      body,
      user,
      em: app.orm.em.fork(),
      app,
      headers: ctx.headers,
      request,
    })
    const reply = result instanceof Reply ? result : new Reply(result)
    for (const [name, value] of Object.entries(reply.options.headers ?? {})) ctx.set(name, value)
    const shaped =
      route.response && reply.body !== undefined && reply.body !== null
        ? route.response.parse(reply.body)
        : reply.body
    if (reply.options.redirect) {
      ctx.status = 302
      ctx.redirect(reply.options.redirect)
      return
    }
    if (reply.options.html) {
      ctx.status = reply.options.status ?? 200
      ctx.type = 'text/html; charset=utf-8'
      ctx.body = String(reply.body)
      return
    }
    if (reply.options.raw) {
      ctx.status = reply.options.status ?? 200
      ctx.type = 'application/json'
      ctx.body = JSON.stringify(shaped)
      return
    }
    const message = reply.options.message ?? route.message ?? DEFAULT_SUCCESS_MESSAGE
    send(ctx, reply.options.status ?? 200, message, shaped ?? null, reply.options)
  }

/** `/roles/{id}.json` to the router's `/roles/:id.json`. */
export const toRouterPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1')

export const createKoaApp = (app: AppContext): Koa<State> => {
  const koa = new Koa<State>({ proxy: false })
  const router = new Router<State>()
  // Fixed paths win over parameter ones (`/users/csrf-token.json` before `/users/{id}.json`).
  const params = (path: string) => (path.match(/\{/g) ?? []).length + (path.includes('*') ? 10 : 0)
  const routes = app.plugins
    .flatMap((plugin) => plugin.routes ?? [])
    .sort((a, b) => params(a.path) - params(b.path))
  const throttle = new Throttle(app.config.authRateLimit)
  for (const route of routes)
    router.register(
      toRouterPath(route.path),
      [route.method],
      routeMiddleware(app, route, throttle) as never,
    )

  koa.use(async (ctx, next) => {
    ctx.state.requestId = randomUUID()
    ctx.state.action = `${ctx.method} ${ctx.path}`
    const started = performance.now()
    ctx.set(SECURITY_HEADERS)
    try {
      await next()
      if (ctx.status === 404 && ctx.body === undefined) send(ctx, 404, messages.notFound, '')
    } catch (error) {
      if (error instanceof HttpError) {
        ctx.set(error.headers)
        send(ctx, error.status, error.message, error.body)
      } else {
        // Unexpected: the client learns nothing of it; the log has it, tied to the request id.
        app.logger.error(
          { err: loggableError(error), requestId: ctx.state.requestId },
          'unexpected error',
        )
        send(ctx, 500, messages.internal, '')
      }
    } finally {
      app.logger.info(
        {
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round(performance.now() - started),
        },
        'request',
      )
    }
  })
  for (const plugin of app.plugins) {
    if (!plugin.middleware) continue
    const middleware = plugin.middleware(app)
    koa.use((ctx, next) => middleware(requestContext(ctx), next))
  }
  koa.use(router.routes())
  // Reached only when no route took the request: a known path asked with another method is 405.
  koa.use(async (ctx) => {
    const layers = router.match(ctx.path, ctx.method).path
    if (layers.length === 0) return
    const allowed = new Set(layers.flatMap((layer) => layer.methods))
    throw new HttpError(405, messages.methodNotAllowed, '', { Allow: [...allowed].join(', ') })
  })
  koa.on('error', () => {
    // Errors are rendered and logged in the first middleware; Koa's default handler would print stacks.
  })
  return koa
}

export interface RunningApi {
  server: Server
  url: string
  close(): Promise<void>
}

/** Listens; `close` stops taking connections and waits for in-flight requests. */
export const listen = (app: AppContext, port: number, host: string): Promise<RunningApi> =>
  new Promise((resolve, reject) => {
    const server = createKoaApp(app).listen(port, host)
    server.keepAliveTimeout = 5_000
    server.once('error', reject)
    server.once('listening', () => {
      const address = server.address() as { port: number }
      resolve({
        server,
        url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
        close: () =>
          new Promise<void>((done) => {
            // Keep-alive connections go idle as their last response ends; close each then.
            const sweep = setInterval(() => server.closeIdleConnections(), 50)
            server.close(() => {
              clearInterval(sweep)
              done()
            })
            server.closeIdleConnections()
          }),
      })
    })
  })
