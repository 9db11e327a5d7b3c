// The plugin contract: what a plugin declares (routes, entities, settings flags, hooks) and the
// shape of a route, which the pipeline, the OpenAPI document and the loader all read.
import type { EntityManager } from '@mikro-orm/postgresql'
import type { Command } from 'commander'
import type { z } from 'zod'
import type { AppContext } from './app.ts'
import type { AuthUser } from './auth/user.ts'
import type { MultipartOptions } from './body.ts'
import type { Pagination } from './envelope.ts'
import type { SmtpServer } from './mailer.ts'
import type { AnyEntitySchema, MigrationEntry } from './orm.ts'
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
  /** The client address: the socket peer, or what a configured proxy forwarded. */
  ip: string
  /** Whether the client's connection is TLS, to us or to a configured proxy (cookie `Secure`). */
  secure: boolean
  /** The request's one EntityManager, forked by the core when the request arrives. */
  em: EntityManager
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

/**
 * Who calls a route with this access: always someone on `user` and `admin` routes (the pipeline
 * refuses a guest before the handler runs), maybe nobody on public ones.
 */
export type Caller<A extends Access> = A extends 'public' ? AuthUser | undefined : AuthUser

export interface HandlerInput<Params, Body, Granted = unknown, A extends Access = Access> {
  params: Params
  query: ParsedQuery
  body: Body
  /** The signed-in user; undefined only for guests on public routes. */
  user: Caller<A>
  /** The request's EntityManager; inside the transaction when the route declares one. */
  em: EntityManager
  app: AppContext
  /** Request headers, lower-case names. */
  headers: Record<string, string | string[] | undefined>
  /** The HTTP exchange, for handlers that set cookies or read the client address. */
  request: RequestContext
  /** What the route's access policy found while checking (e.g. the caller's permission). */
  granted: Granted
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
      /** Answer the body (a Buffer) with this content type, e.g. an image. */
      binary?: string
      /** Answer 302 to this location. */
      redirect?: string
      headers?: Record<string, string>
    } = {},
  ) {}
}

/** What an access policy is given to decide. */
export interface PolicyInput<Params = Record<string, string>> {
  /** Signed in: policies only run on routes whose `auth` is `user` or `admin`. */
  user: AuthUser
  params: Params
  /** The request body as parsed, before the route's schema validates it. */
  rawBody: unknown
  em: EntityManager
  app: AppContext
}

/**
 * Who may touch what a route works on, evaluated after authentication and before the body is
 * validated. `check` throws the refusal (404 when the caller may not know the item exists, 403
 * otherwise) or returns what it learned, which the handler receives as `granted`.
 */
export interface AccessPolicy<Granted = unknown, Params = never> {
  /** One line for the API reference, e.g. "at least read on the resource". */
  description: string
  /** The statuses a refusal answers, for the API reference. */
  refusals: readonly (403 | 404)[]
  /** The message each refusal answers, for the API reference's examples. */
  refusalMessages?: Partial<Record<403 | 404, string>>
  check(input: PolicyInput<Params>): Promise<Granted>
}

/**
 * A relation `contain[name]=1` may ask for. `load` fills it on every row of the answer with one
 * query for the whole page; a contain without `load` is produced by the handler's own query.
 */
export interface ContainSpec {
  // biome-ignore lint/suspicious/noExplicitAny: rows are the route's own wire objects
  load?: (rows: any[], context: ContainContext) => Promise<void>
  /** Contains this one builds on (`permissions.user.profile` needs `permissions`); turned on with it. */
  requires?: readonly string[]
  /** On unless the request says `contain[name]=0`. @default false */
  default?: boolean
  /**
   * The plugin that lends this contain to another plugin's route (favourites lend `favorite` to
   * resources): when it is disabled, the contain is not offered.
   */
  plugin?: string
}

export interface ContainContext {
  em: EntityManager
  user: AuthUser | undefined
  app: AppContext
  /** Every contain in force for this request. */
  contain: Readonly<Record<string, boolean>>
}

/**
 * The caller of a contain that loads what is theirs (favourites, secrets, tags). Such contains
 * are declared on authenticated routes only, so a missing caller is a declaration mistake.
 */
export const callerOf = (context: ContainContext): AuthUser => {
  if (!context.user) throw new Error('this contain is declared on a route without a caller')
  return context.user
}

export interface Route<
  P extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  G = unknown,
  A extends Access = Access,
> {
  method: Method
  /** passbolt path with the `.json` suffix and `{param}` placeholders, e.g. `/roles/{id}.json`. */
  path: string
  /** `<Controller>.<action>` as passbolt names it; hashed into `header.action`. */
  action: string
  summary: string
  /** What the operation does, for the API reference: what it changes, and when it refuses. */
  description?: string
  auth: A
  /**
   * What the caller may touch. `'none'` when `auth` alone decides (public routes, routes that
   * only touch the caller's own data, administrator routes); the declaration should say why in
   * a comment. There is no default: a route without it fails at boot.
   */
  permission: 'none' | AccessPolicy<G, z.output<P>>
  params?: P
  query?: QueryOptions
  body?: B
  /**
   * 400 message when the body does not validate, e.g. passbolt's `Could not validate comment data.`
   * @default 'Could not validate the request data.'
   */
  validationMessage?: string
  /** Shape of the envelope body: documents the route and drops fields that must not leave. */
  response?: z.ZodType
  /** The content type of a successful answer that is not the JSON envelope (an image). */
  produces?: string
  /** Success message. @default 'The operation was successful.' */
  message?: string
  /**
   * Run the access check, the handler and the contain loaders in one database transaction:
   * anything thrown rolls all of it back. @default false
   */
  transaction?: boolean
  /**
   * Changing cookie-session calls need the CSRF double-submit token; a route that must work
   * without it (the login posts, setup completion) says `csrf: false`. @default true
   */
  csrf?: boolean
  /**
   * Accept multipart/form-data bodies: `true` for fields only (the GPGAuth posts), or the file
   * limits for a route that takes an upload (an avatar). @default false
   */
  multipart?: boolean | ((app: AppContext) => MultipartOptions)
  /** Leave the route out of the OpenAPI document (HTML pages). @default true */
  openapi?: boolean
  /**
   * Rate-limit failed attempts on the route per account (when `account` names one) and per
   * client address, with a higher ceiling per address (sign-in and token routes).
   */
  throttle?: { account?: (input: { params: z.output<P>; body: z.output<B> }) => string | undefined }
  handler: (input: HandlerInput<z.output<P>, z.output<B>, G, A>) => unknown
}

/**
 * Typing helper: infers params, body, granted and caller types from the declaration (a handler
 * of a `user` or `admin` route gets a caller that is never undefined).
 */
export const defineRoute = <
  P extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  G = unknown,
  A extends Access = Access,
>(
  route: Route<P, B, G, A>,
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
  /** Plugins this one cannot run without: disabling one of them refuses to boot. */
  dependsOn?: readonly string[]
  /**
   * Plugins whose exports this one calls when they are there, but which may be disabled: their
   * tables exist whatever the configuration (their migrations always apply), so reads and
   * cleanups of that data stay right, while what they lend this plugin's routes (contains)
   * goes with them. Enabled ones start before this one, as dependencies do.
   */
  reads?: readonly string[]
  entities?: readonly AnyEntitySchema[]
  /**
   * The tables this plugin owns that none of its entities maps (it reaches them with the query
   * builder). A plugin owns its entities' tables too. Only the owner writes a table; another
   * plugin names it only when it depends on or reads the owner.
   */
  tables?: readonly string[]
  /**
   * Views this plugin declares over its tables for other plugins to read: the columns it lets
   * them see. Any plugin may name them in its SQL; only the owner's migrations create them.
   */
  views?: readonly string[]
  /**
   * The migrations that create and change this plugin's tables, named
   * `Migration<yyyymmddhhmmss><What>` so that every plugin's and the core's apply in one order.
   * They apply whether or not the plugin is enabled, so the schema never depends on the config.
   */
  migrations?: readonly MigrationEntry[]
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
  /**
   * The second factors a user must still pass after proving their key (e.g. `totp`); a sign-in
   * route tells the client, whichever plugin provides them.
   */
  pendingSecondFactors?: (em: EntityManager, userId: string, app: AppContext) => Promise<string[]>
  /**
   * What the plugin lends to other plugins' extension points (e.g. its part in deleting a user),
   * each made by the owner's `point.provide(...)`.
   */
  extensions?: readonly Extension[]
  /**
   * Follows who can read which items, whatever changed it (a share, a group membership): the
   * plugin updates what it keeps per user and item, inside the change's transaction. One call
   * carries every item of the change (a member joining a group gains all its passwords), so
   * that the plugin can update them with a few statements.
   */
  accessChanged?: (
    em: EntityManager,
    changes: readonly AccessChange[],
    app: AppContext,
  ) => Promise<void>
  /**
   * What the plugin adds to the answer of a setup or recovery link (`/setup/start`,
   * `/setup/recover/start`), e.g. the passphrase policy the new passphrase must meet.
   */
  setupInfo?: (
    input: { em: EntityManager; flow: 'register' | 'recover'; userId: string },
    app: AppContext,
  ) => Promise<Record<string, unknown>>
  /** The plugin's say on outgoing mail: which notifications go out, through which server. */
  mail?: MailHooks
  /**
   * What the plugin adds to the administrators' healthcheck, as passbolt lays it out: fields by
   * domain (`{smtpSettings: {isInDb: true}}`), merged into the report.
   */
  healthcheck?: (app: AppContext, em: EntityManager) => Promise<HealthcheckFields>
  /** Prepares what the plugin needs once per start (e.g. key material); runs after migrations. */
  init?: (app: AppContext) => Promise<void>
  /** Releases what `init` opened (connections, timers); runs at shutdown, in reverse order. */
  shutdown?: (app: AppContext) => Promise<void>
  /**
   * Work to do every so often (purging expired rows, sending notices): run once a period across
   * all the API processes on the database, whichever gets to it first.
   */
  jobs?: readonly ScheduledJob[]
  /** Adds subcommands to the `api` CLI; `withApp` boots the server's parts around its work. */
  commands?: (program: Command, withApp: WithApp) => void
}

/** A periodic job of a plugin. */
export interface ScheduledJob {
  /** Unique across plugins, e.g. `auth.purge-expired`. */
  name: string
  /** The period: the job starts at most once in it, in any process. */
  everyMs: number
  /** The work, in one transaction. */
  run(em: EntityManager, app: AppContext): Promise<void>
}

/** Boots the server's parts (migrating unless told not to), runs `work`, shuts them down. */
export type WithApp = <T>(
  work: (app: AppContext) => Promise<T>,
  options?: { migrate?: boolean },
) => Promise<T>

/**
 * A plugin's say on outgoing mail. The mailer asks every plugin: a notification goes out only
 * when none refuses it, and the first plugin naming an SMTP server is used.
 */
export interface MailHooks {
  /** Whether mails tagged with this notification (e.g. `send_user_create`) may be sent. */
  allows?: (notification: string, app: AppContext) => Promise<boolean>
  /** The SMTP server an administrator saved, used instead of the configured one. */
  transport?: (app: AppContext) => Promise<SmtpServer | undefined>
}

/** Healthcheck fields by domain; nested objects are merged one level deep. */
export type HealthcheckFields = Record<string, Record<string, unknown>>

/** Users who gained or lost the ability to read an item (a resource or a folder). */
export interface AccessChange {
  aco: 'Resource' | 'Folder'
  id: string
  gained: readonly string[]
  lost: readonly string[]
}

/** What a plugin lends to an extension point: the point's name and the hooks. */
export interface Extension {
  point: string
  hooks: unknown
}

/**
 * A place where a plugin lets others take part in its domain (the users plugin's directory
 * filters and deletion hooks): the owner declares it and reads it, the others `provide` to it
 * in their `extensions`. The core knows no domain's hooks, only this.
 */
export interface ExtensionPoint<T> {
  provide(hooks: T): Extension
  /** What these plugins (the enabled ones: `app.plugins`) provide, in plugin order. */
  of(plugins: readonly Plugin[]): T[]
}

export const extensionPoint = <T>(name: string): ExtensionPoint<T> => ({
  provide: (hooks) => ({ point: name, hooks }),
  of: (plugins) =>
    plugins.flatMap((plugin) =>
      (plugin.extensions ?? [])
        .filter((extension) => extension.point === name)
        .map((extension) => extension.hooks as T),
    ),
})

/** Typing helper for a plugin's `index.ts`. */
export const definePlugin = (plugin: Plugin): Plugin => plugin

/** A typed slot for what a plugin keeps for the life of the process (keys, caches). */
export interface PluginState<T> {
  get(app: AppContext): T
  set(app: AppContext, value: T): void
}

export const pluginState = <T>(name: string): PluginState<T> => ({
  get: (app) => {
    if (!app.pluginState.has(name)) throw new Error(`plugin state "${name}" was never set`)
    return app.pluginState.get(name) as T
  },
  set: (app, value) => {
    app.pluginState.set(name, value)
  },
})
