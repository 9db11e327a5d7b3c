// The plugin contract and the loader: a plugin declares its routes, entities and settings
// flags; `assemblePlugins` orders the enabled ones by dependency and refuses bad sets.

import type { EntityManager } from '@mikro-orm/postgresql'
import type { Command } from 'commander'
import type { z } from 'zod'
import type { AppContext } from './app.ts'
import type { AuthUser } from './auth/user.ts'
import type { Pagination } from './envelope.ts'
import type { AnyEntitySchema } from './orm.ts'
import type { ParsedQuery, QueryOptions } from './query.ts'

/** Who may call a route. There is no default: a route without it fails at boot. */
export type Access = 'public' | 'user' | 'admin'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** What authenticators, plugin middleware and handlers see of the HTTP exchange. */
export interface RequestContext {
  method: string
  path: string
  /** Path and query string as received. */
  url: string
  headers: Record<string, string | string[] | undefined>
  cookies: {
    get(name: string): string | undefined
    set(name: string, value: string | null, options?: CookieOptions): unknown
  }
  /** The client address (socket peer; no proxy headers are trusted). */
  ip: string
  /** Whether the request came over TLS (for cookie `Secure`). */
  secure: boolean
  /** Per-request state shared by the core and plugins. */
  state: Record<string, unknown>
  /** Sets a response header. */
  set(field: string, value: string): void
  /** Reads a response header already set. */
  responseHeader(field: string): string | undefined
}

export interface CookieOptions {
  httpOnly?: boolean
  secure?: boolean
  sameSite?: 'lax' | 'strict' | 'none'
  path?: string
  expires?: Date
  maxAge?: number
  overwrite?: boolean
}

export interface HandlerInput<Params, Body> {
  params: Params
  query: ParsedQuery
  body: Body
  /** The signed-in user; undefined for guests on public routes. */
  user: AuthUser | undefined
  /** A fork of the EntityManager for this request only. */
  em: EntityManager
  app: AppContext
  /** Request headers, lower-case names. */
  headers: Record<string, string | string[] | undefined>
  /** The HTTP exchange, for handlers that set cookies or read the client address. */
  request: RequestContext
}

/** A handler result with more than a body. */
export class Reply {
  constructor(
    readonly body: unknown,
    readonly options: {
      message?: string
      pagination?: Pagination
      status?: number
      /** Answer the bare body, without envelope (passbolt's `contain[header]=0`, JWKS). */
      raw?: boolean
      /** `header.status` when it differs from what the HTTP status says (GPGAuth stages: 200 + error). */
      outcome?: 'success' | 'error'
      /** Answer the body (a string) as an HTML page. */
      html?: boolean
      /** Answer 302 to this location. */
      redirect?: string
      headers?: Record<string, string>
    } = {},
  ) {}
}

export interface Route<P extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  method: Method
  /** passbolt path with the `.json` suffix and `{param}` placeholders, e.g. `/roles/{id}.json`. */
  path: string
  /** `<Controller>.<action>` as passbolt names it; hashed into `header.action`. */
  action: string
  summary: string
  auth: Access
  params?: P
  query?: QueryOptions
  body?: B
  /** Shape of the envelope body: documents the route and drops fields that must not leave. */
  response?: z.ZodType
  /** Success message. @default 'The operation was successful.' */
  message?: string
  /**
   * Changing cookie-session calls need the CSRF double-submit token; a route that must work
   * without it (the login posts, setup completion) says `csrf: false`. @default true
   */
  csrf?: boolean
  /** Accept multipart/form-data bodies (fields only), as the GPGAuth posts send. @default false */
  multipart?: boolean
  /** Leave the route out of the OpenAPI document (HTML pages). @default true */
  openapi?: boolean
  /**
   * Rate-limit the route per client address and, when `account` names one, per account
   * (sign-in and token routes). 429 beyond `authRateLimit` attempts a minute.
   */
  throttle?: { account?: (input: { params: z.output<P>; body: z.output<B> }) => string | undefined }
  handler: (input: HandlerInput<z.output<P>, z.output<B>>) => unknown
}

/** Typing helper: infers params and body types from the schemas. */
export const defineRoute = <P extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType>(
  route: Route<P, B>,
): Route => route as unknown as Route

/** Flags a plugin adds under `passbolt.plugins` of /settings.json. */
export interface SettingsFlags {
  /** Shown to everyone. */
  public?: Record<string, unknown>
  /** Shown to signed-in users only (merged over `public`). */
  user?: Record<string, unknown>
}

export interface Plugin {
  name: string
  dependsOn?: readonly string[]
  entities?: readonly AnyEntitySchema[]
  routes?: readonly Route[]
  settings?: (app: AppContext) => SettingsFlags
  /** Resolves the caller from the request, e.g. from a session cookie. First match wins. */
  authenticate?: (request: RequestContext, app: AppContext) => Promise<AuthUser | undefined>
  /**
   * Runs around every request, before routing, in plugin order (e.g. session loading, protocol
   * headers). Calls `next` to go on.
   */
  middleware?: (
    app: AppContext,
  ) => (request: RequestContext, next: () => Promise<void>) => Promise<void>
  /**
   * Runs for every signed-in request after authentication, before authorisation; may throw
   * (e.g. a second factor is still owed).
   */
  guard?: (
    input: { user: AuthUser; request: RequestContext; route: Route },
    app: AppContext,
  ) => Promise<void>
  /** Prepares what the plugin needs once per start (e.g. key material); runs after migrations. */
  init?: (app: AppContext) => Promise<void>
  /** Adds subcommands to the `api` CLI; `withApp` boots the server's parts around its work. */
  commands?: (
    program: Command,
    withApp: <T>(work: (app: AppContext) => Promise<T>) => Promise<T>,
  ) => void
}

/** Typing helper for a plugin's `index.ts`. */
export const definePlugin = (plugin: Plugin): Plugin => plugin

export class PluginError extends Error {
  override name = 'PluginError'
}

const ACCESS: readonly Access[] = ['public', 'user', 'admin']

/**
 * Keeps the enabled plugins and orders them so each comes after what it depends on.
 * Throws on a dependency that is missing or disabled, on a cycle, and on a route
 * without an access rule or declared twice.
 */
export const assemblePlugins = (
  available: readonly Plugin[],
  disabled: readonly string[] = [],
): Plugin[] => {
  const byName = new Map(available.map((plugin) => [plugin.name, plugin]))
  for (const name of disabled)
    if (!byName.has(name)) throw new PluginError(`cannot disable unknown plugin "${name}"`)
  const enabled = available.filter((plugin) => !disabled.includes(plugin.name))
  const ordered: Plugin[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (plugin: Plugin, chain: string[]) => {
    if (state.get(plugin.name) === 'done') return
    if (state.get(plugin.name) === 'visiting')
      throw new PluginError(`plugin dependency cycle: ${[...chain, plugin.name].join(' -> ')}`)
    state.set(plugin.name, 'visiting')
    for (const dependency of plugin.dependsOn ?? []) {
      const target = byName.get(dependency)
      if (!target)
        throw new PluginError(`plugin "${plugin.name}" depends on unknown plugin "${dependency}"`)
      if (disabled.includes(dependency))
        throw new PluginError(
          `plugin "${plugin.name}" depends on "${dependency}", which is disabled`,
        )
      visit(target, [...chain, plugin.name])
    }
    state.set(plugin.name, 'done')
    ordered.push(plugin)
  }
  for (const plugin of enabled) visit(plugin, [])

  const seen = new Map<string, string>()
  for (const plugin of ordered)
    for (const route of plugin.routes ?? []) {
      if (!ACCESS.includes(route.auth))
        throw new PluginError(
          `route ${route.method} ${route.path} of plugin "${plugin.name}" declares no valid auth`,
        )
      const key = `${route.method} ${route.path}`
      const owner = seen.get(key)
      if (owner)
        throw new PluginError(`route ${key} is declared by both "${owner}" and "${plugin.name}"`)
      seen.set(key, plugin.name)
    }
  return ordered
}
