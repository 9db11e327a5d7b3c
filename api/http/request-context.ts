// The plugin-facing view of a Koa context, made once per request with the request's one
// EntityManager.
import type { AppContext } from '../app.ts'
import type { RequestContext } from '../plugin.ts'
import type { Context } from './respond.ts'

const KEY = Symbol('keyward.request')

export const requestContext = (ctx: Context, app: AppContext): RequestContext => {
  const holder = ctx as unknown as { [KEY]?: RequestContext }
  const existing = holder[KEY]
  if (existing) return existing
  const request: RequestContext = {
    method: ctx.method,
    path: ctx.path,
    url: ctx.originalUrl,
    headers: ctx.headers,
    cookies: ctx.cookies as RequestContext['cookies'],
    ip: ctx.state.client.ip,
    secure: ctx.state.client.secure,
    em: app.orm.em.fork(),
    state: {},
    set: (field, value) => ctx.set(field, value),
    responseHeader: (field) => ctx.response.get(field) || undefined,
  }
  holder[KEY] = request
  return request
}
