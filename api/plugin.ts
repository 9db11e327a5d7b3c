// The plugin contract: what a plugin declares (routes, entities, settings flags, hooks) and the
// shape of a route, which the pipeline, the OpenAPI document and the loader all read.
import type { EntityManager, Knex } from '@mikro-orm/postgresql'
import type { Command } from 'commander'
import type { z } from 'zod'
import type { AppContext } from './app.ts'
import type { AuthUser } from './auth/user.ts'
import type { MultipartOptions } from './body.ts'
import type { Pagination } from './envelope.ts'
import type { SmtpServer } from './mailer.ts'
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

export interface HandlerInput<Params, Body, Granted = unknown> {
  params: Params
  query: ParsedQuery
  body: Body
  /** The signed-in user; undefined for guests on public routes. */
  user: AuthUser | undefined
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
}

export interface ContainContext {
  em: EntityManager
  user: AuthUser | undefined
  app: AppContext
  /** Every contain in force for this request. */
  contain: Readonly<Record<string, boolean>>
}

export interface Route<
  P extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  G = unknown,
> {
  method: Method
  /** passbolt path with the `.json` suffix and `{param}` placeholders, e.g. `/roles/{id}.json`. */
  path: string
  /** `<Controller>.<action>` as passbolt names it; hashed into `header.action`. */
  action: string
  summary: string
  /** What the operation does, for the API reference: what it changes, and when it refuses. */
  description?: string
  auth: Access
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
  handler: (input: HandlerInput<z.output<P>, z.output<B>, G>) => unknown
}

/** Typing helper: infers params, body and granted types from the declaration. */
export const defineRoute = <
  P extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  G = unknown,
>(
  route: Route<P, B, G>,
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
  /**
   * The second factors a user must still pass after proving their key (e.g. `totp`); a sign-in
   * route tells the client, whichever plugin provides them.
   */
  pendingSecondFactors?: (em: EntityManager, userId: string, app: AppContext) => Promise<string[]>
  /** The plugin's part in deleting users and groups. */
  deletion?: DeletionHooks
  /** What the plugin adds to the user directory's answers (filters and contains it owns). */
  userDirectory?: UserDirectoryHooks
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
  /** Adds subcommands to the `api` CLI; `withApp` boots the server's parts around its work. */
  commands?: (program: Command, withApp: WithApp) => void
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

/**
 * A plugin's part in the user directory (`GET /users.json`, `GET /users/{id}.json`), as
 * passbolt's plugins extend its users index: the users plugin declares the filter or contain
 * and asks every plugin that provides it.
 */
export interface UserDirectoryHooks {
  /**
   * Narrows the users query for a filter (e.g. `has-access`), inside the list's one statement;
   * may first check the caller may use it (and throw the refusal).
   */
  filters?: Record<
    string,
    (input: {
      query: Knex.QueryBuilder
      knex: Knex
      value: unknown
      user: AuthUser
      em: EntityManager
    }) => Promise<void>
  >
  /** Fills a contain (e.g. `is_mfa_enabled`) on every user row, with one query for all. */
  contains?: Record<
    string,
    (rows: ({ id: string } & Record<string, unknown>)[], context: ContainContext) => Promise<void>
  >
}

/** A user or a group being deleted. */
export interface DeletionSubject {
  kind: 'User' | 'Group'
  id: string
}

/**
 * A plugin's part in deleting a user or a group: what blocks it and what it cleans up. The
 * plugin that deletes calls every plugin's hooks inside its transaction: first all `blockers`
 * (merged, the deletion is refused when any is non-empty), then every `cleanup` in reverse
 * plugin order (so a plugin cleans up before the plugins it depends on).
 */
export interface DeletionHooks {
  /**
   * Reasons the deletion must not happen, nested as passbolt nests them in its error body, e.g.
   * `{resources: {sole_owner: [...]}}` or `{groups: {sole_manager: [...]}}`; `{}` for none.
   */
  blockers?: (
    em: EntityManager,
    subject: DeletionSubject,
    app: AppContext,
  ) => Promise<Record<string, Record<string, unknown[]>>>
  /**
   * Hands over what the subject alone holds, as the deletion request asks, before the blockers
   * are checked; throws (400) when the transfer does not match what blocks the deletion.
   */
  transfer?: (
    em: EntityManager,
    subject: DeletionSubject,
    transfer: DeletionTransfer,
    app: AppContext,
    actorId: string,
  ) => Promise<void>
  /** Removes or reassigns what the plugin holds for the subject; `actorId` is who deletes. */
  cleanup?: (
    em: EntityManager,
    subject: DeletionSubject,
    app: AppContext,
    actorId?: string,
  ) => Promise<void>
}

/**
 * passbolt's `transfer` in a deletion request: permissions (by id, with their item) to make
 * owner, group memberships (by id, with their group) to make manager.
 */
export interface DeletionTransfer {
  owners?: { id: string; aco_foreign_key: string }[]
  managers?: { id: string; group_id: string }[]
}

/** Users who gained or lost the ability to read an item (a resource or a folder). */
export interface AccessChange {
  aco: 'Resource' | 'Folder'
  id: string
  gained: readonly string[]
  lost: readonly string[]
}

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
