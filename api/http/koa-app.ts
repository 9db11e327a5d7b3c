// The Koa application: request ids and security headers, the one error renderer that speaks
// the passbolt envelope, plugin middleware, and the routes of the assembled plugins.
import { randomUUID } from 'node:crypto'
import Router from '@koa/router'
import Koa from 'koa'
import type { AppContext } from '../app.ts'
import { httpErrorOfDatabase } from '../db/errors.ts'
import { HttpError, messages } from '../errors.ts'
import { Throttle } from '../throttle.ts'
import { loggableError, loggablePath } from './log-safety.ts'
import { routeMiddleware } from './pipeline.ts'
import { requestContext } from './request-context.ts'
import { type Context, SECURITY_HEADERS, type State, sendEnvelope } from './respond.ts'

/** `/roles/{id}.json` to the router's `/roles/:id.json`. */
export const toRouterPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1')

/** Renders whatever a request threw: typed errors as they are, anything else as a bare 500. */
const renderError = (app: AppContext, ctx: Context, error: unknown) => {
  const known = error instanceof HttpError ? error : httpErrorOfDatabase(error)
  if (known) {
    ctx.set(known.headers)
    sendEnvelope(ctx, known.status, known.message, known.body)
    return
  }
  // The client learns nothing of it; the log has it, tied to the request id.
  app.logger.error(
    { err: loggableError(error), requestId: ctx.state.requestId },
    'unexpected error',
  )
  sendEnvelope(ctx, 500, messages.internal, '')
}

export const createKoaApp = (app: AppContext): Koa<State> => {
  const koa = new Koa<State>({ proxy: false })
  const router = new Router<State>()
  // Fixed paths win over parameter ones (`/users/csrf-token.json` before `/users/{id}.json`).
  const params = (path: string) => (path.match(/\{/g) ?? []).length + (path.includes('*') ? 10 : 0)
  const routes = app.plugins
    .flatMap((plugin) => plugin.routes ?? [])
    .sort((a, b) => params(a.path) - params(b.path))
  const throttle = new Throttle()
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
      if (ctx.status === 404 && ctx.body === undefined)
        sendEnvelope(ctx, 404, messages.notFound, '')
    } catch (error) {
      renderError(app, ctx, error)
    } finally {
      app.logger.info(
        {
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: loggablePath(ctx.state.routePath, ctx.path),
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
    koa.use((ctx, next) => middleware(requestContext(ctx, app), next))
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
