// The Koa application: request ids and security headers, the one error renderer that speaks
// the passbolt envelope, plugin middleware, and the routes of the assembled plugins.
import { randomUUID } from 'node:crypto'
import { setTimeout as delay } from 'node:timers/promises'
import Koa from 'koa'
import type { AppContext } from '../app.ts'
import { databaseUnavailable, httpErrorOfDatabase } from '../db/errors.ts'
import { HttpError, messages } from '../errors.ts'
import { selectSql } from '../orm.ts'
import { type RequestScope, requestScope } from '../request-scope.ts'
import { addressMatcher, resolveClient } from './forwarded.ts'
import { loggableError, loggablePath } from './log-safety.ts'
import { routeMiddleware } from './pipeline.ts'
import { requestContext } from './request-context.ts'
import { type Context, SECURITY_HEADERS, type State, sendEnvelope } from './respond.ts'
import { RouteTable } from './route-table.ts'
import { ListReadFailed, StalledClient } from './row-stream.ts'

/** `/roles/{id}.json` to the router's `/roles/:id.json`. */
export const toRouterPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1')

/** The response header naming the request, as every log line written for it does. */
export const REQUEST_ID_HEADER = 'X-Request-Id'

/** Longest a request waits for the first attempt at sending the mails it queued. */
const MAIL_WAIT_MS = 2_000

/** Longest the error renderer waits for the database to answer its probe. */
const PROBE_MS = 1_000

/**
 * Whether the database answers a trivial statement at once. An error nobody classified that
 * comes while it does not (a driver's message for a connection cut mid-statement, say) is the
 * outage showing through, and is answered as one.
 */
const databaseAnswers = async (app: AppContext) => {
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      selectSql(app.orm.em.fork(), 'select 1', {}),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer in time')), PROBE_MS)
      }),
    ])
    return true
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}

/** Renders whatever a request threw: typed errors as they are, anything else as a bare 500. */
const renderError = async (app: AppContext, ctx: Context, error: unknown) => {
  let known = error instanceof HttpError ? error : httpErrorOfDatabase(error)
  if (!known && !(await databaseAnswers(app))) known = databaseUnavailable()
  if (known) {
    if (known.status === 503)
      app.logger.warn(
        { err: loggableError(error), requestId: ctx.state.requestId },
        'database unavailable',
      )
    ctx.set(known.headers)
    sendEnvelope(ctx, known.status, known.message, known.body)
    return
  }
  // The client learns nothing of it; the log has it, tied to the request id.
  app.logger.error({ err: loggableError(error) }, 'unexpected error')
  sendEnvelope(ctx, 500, messages.internal, '')
}

/**
 * A trusted proxy passed on a plain-HTTP request for an HTTPS app: browsers are sent to the
 * HTTPS address; anything else is refused, since resending it would send its body in clear again.
 */
const refusePlainHttp = (app: AppContext, ctx: Context) => {
  const target = new URL(ctx.originalUrl, app.config.appUrl)
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
    throw new HttpError(403, messages.httpsRequired)
  ctx.status = 301
  ctx.redirect(target.href)
}

/** How long, and how many bytes of it, an unread request body is read before its answer. */
const UNREAD_BODY_MS = 5_000
const UNREAD_BODY_BYTES = 64 * 1024 * 1024

/**
 * Reads what is left of a request body the answer did not need (a refused, oversized or
 * unauthorised upload) before the answer goes, within bounds. A client or proxy that asked to
 * close the connection after this request (nginx speaks HTTP/1.0 to its upstream) is still
 * sending it: a connection closed while data arrives is reset, and the reset can reach the
 * sender before the answer does (nginx then answers 502 instead of ours).
 */
const readUnreadBody = (req: Context['req']) =>
  new Promise<void>((resolve) => {
    if (req.complete || req.destroyed) return resolve()
    let seen = 0
    const done = () => {
      clearTimeout(timer)
      req.off('data', count)
      req.off('end', done)
      req.off('close', done)
      resolve()
    }
    const count = (chunk: Buffer) => {
      seen += chunk.length
      if (seen > UNREAD_BODY_BYTES) done()
    }
    const timer = setTimeout(done, UNREAD_BODY_MS)
    req.on('data', count)
    req.once('end', done)
    req.once('close', done)
    req.resume()
  })

/** Codes of a client that left before its answer ended: nothing went wrong on our side. */
const CLIENT_LEFT = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED'])

/** Logs why an answer whose header was sent was cut. */
const logCutAnswer = (app: AppContext, error: unknown, ctx: Context | undefined) => {
  const code = (error as { code?: unknown } | null)?.code
  const requestId = ctx?.state.requestId
  if (error instanceof ListReadFailed)
    app.logger.error({ err: loggableError(error.cause), requestId }, 'answer cut by an error')
  else if (error instanceof StalledClient)
    app.logger.warn({ requestId }, 'answer cut: the client stopped reading')
  else if (typeof code === 'string' && CLIENT_LEFT.has(code))
    app.logger.info({ requestId, code }, 'client left before the answer ended')
  else app.logger.error({ err: loggableError(error), requestId }, 'answer cut by an error')
}

export const createKoaApp = (app: AppContext): Koa<State> => {
  // Koa's own proxy support trusts every peer or none; the configured list decides here.
  const koa = new Koa<State>({ proxy: false })
  const trusted = addressMatcher(app.config.trustedProxies)
  const httpsApp = app.config.appUrl.startsWith('https:')
  const table = new RouteTable()
  // Fixed paths win over parameter ones (`/users/csrf-token.json` before `/users/{id}.json`).
  const params = (path: string) => (path.match(/\{/g) ?? []).length + (path.includes('*') ? 10 : 0)
  const routes = app.plugins
    .flatMap((plugin) => plugin.routes ?? [])
    .sort((a, b) => params(a.path) - params(b.path))
  for (const route of routes)
    table.register(toRouterPath(route.path), route.method, routeMiddleware(app, route) as never)

  koa.use(async (ctx, next) => {
    const scope: RequestScope = { requestId: randomUUID(), mails: [] }
    ctx.state.requestId = scope.requestId
    ctx.state.action = `${ctx.method} ${ctx.path}`
    const client = resolveClient(
      trusted,
      ctx.req.socket.remoteAddress ?? '',
      // Koa, told not to trust proxies, reads this from the socket alone.
      ctx.secure,
      ctx.headers,
    )
    ctx.state.client = client
    // The cookie library refuses `Secure` on a connection it sees as plain; the proxy's is not.
    ctx.cookies.secure = client.secure
    const started = performance.now()
    ctx.set(SECURITY_HEADERS)
    ctx.set(REQUEST_ID_HEADER, scope.requestId)
    await requestScope.run(scope, async () => {
      try {
        if (client.proxied && !client.secure && httpsApp) refusePlainHttp(app, ctx)
        else await next()
        if (ctx.status === 404 && ctx.body === undefined)
          sendEnvelope(ctx, 404, messages.notFound, '')
      } catch (error) {
        await renderError(app, ctx, error)
      } finally {
        await readUnreadBody(ctx.req)
        // The request's transaction is over: what it queued is committed (or gone). The mail
        // it asked for gets a bounded first attempt, so a user who asked for a link usually
        // finds it sent; a slow or failing server only delays the answer by that much.
        if (scope.mails.length)
          await Promise.race([
            app.mailer.deliverDue(),
            delay(MAIL_WAIT_MS, undefined, { ref: false }),
          ])
        const ms = performance.now() - started
        app.metrics.observeRequest(
          ctx.method,
          ctx.state.routePath ?? 'unmatched',
          ctx.status,
          ms / 1000,
        )
        app.logger.info(
          {
            method: ctx.method,
            ip: client.ip,
            path: loggablePath(ctx.state.routePath, ctx.path),
            status: ctx.status,
            ms: Math.round(ms),
          },
          'request',
        )
      }
    })
  })
  for (const plugin of app.plugins) {
    if (!plugin.middleware) continue
    const middleware = plugin.middleware(app)
    koa.use((ctx, next) => middleware(requestContext(ctx, app), next))
  }
  koa.use(table.middleware())
  // Reached only when no route took the request: a known path asked with another method is 405.
  koa.use(async (ctx) => {
    const methods = table.methodsOf(ctx.path)
    if (methods.length === 0) return
    const allowed = new Set(methods)
    throw new HttpError(405, messages.methodNotAllowed, '', { Allow: [...allowed].join(', ') })
  })
  // Errors are rendered and logged in the first middleware; what reaches Koa's own handler (which
  // would print stacks) comes from writing a streamed answer whose header was sent: the answer
  // can only be cut.
  koa.on('error', (error: unknown, ctx?: Context) => logCutAnswer(app, error, ctx))
  return koa
}
