// The routes, one @koa/router a first path segment. A router tests every route it holds, one
// regular expression after another, for each request; with two hundred routes that scan was
// about 7 % of the CPU of a small authenticated call. The first segment (`users` in
// `/users/me.json` and `/users.json`) picks the one router that can match.
import Router from '@koa/router'
import type { Middleware } from 'koa'
import type { State } from './respond.ts'

/** `/users/me.json` and `/users.json` to `users`; `/` to ``. Lower case: routes ignore case. */
const firstSegment = (path: string): string => {
  const end = path.slice(1).search(/[/.]/)
  return (end === -1 ? path.slice(1) : path.slice(1, end + 1)).toLowerCase()
}

/**
 * Whether a route's first segment is fixed text, so that it can be filed under it: no parameter,
 * wildcard or optional part (`/app{/*rest}` matches `/app` too, so it is tried everywhere).
 */
const isFixed = (segment: string) => /^[\w-]*$/.test(segment)

export class RouteTable {
  private readonly routers = new Map<string, Router<State>>()
  /** Routes whose first segment is not fixed text: tried after the segment's own router. */
  private readonly anySegment = new Router<State>()

  /** Adds a route; among routes that match the same request, the first added wins. */
  register(path: string, method: string, handler: Middleware<State>): void {
    const segment = firstSegment(path)
    let router = isFixed(segment) ? this.routers.get(segment) : this.anySegment
    if (!router) {
      router = new Router<State>()
      this.routers.set(segment, router)
    }
    router.register(path, [method], handler as never)
  }

  /** The middleware that runs the route a request matches, or passes it on. */
  middleware(): Middleware<State> {
    // The routers' middleware types the context they add to; Koa's middleware passes it in.
    const routes = (router: Router<State>) => router.routes() as unknown as Middleware<State>
    const dispatchers = new Map(
      [...this.routers].map(([segment, router]) => [segment, routes(router)]),
    )
    const rest = routes(this.anySegment)
    return (ctx, next) => {
      const dispatch = dispatchers.get(firstSegment(ctx.path))
      return dispatch ? dispatch(ctx, () => rest(ctx, next)) : rest(ctx, next)
    }
  }

  /** The methods of the routes whose path matches, whatever their method. */
  methodsOf(path: string): string[] {
    const routers = [this.routers.get(firstSegment(path)), this.anySegment]
    return routers.flatMap(
      (router) => router?.match(path, 'GET').path.flatMap((layer) => layer.methods) ?? [],
    )
  }
}
