// The plugin contract and the loader: a plugin declares its routes, entities and settings
// flags; `assemblePlugins` orders the enabled ones by dependency and refuses bad sets.

import type { EntityManager } from '@mikro-orm/postgresql'
import type { z } from 'zod'
import type { AppContext } from './app.ts'
import type { AuthUser } from './auth/user.ts'
import type { Pagination } from './envelope.ts'
import type { AnyEntitySchema } from './orm.ts'
import type { ParsedQuery, QueryOptions } from './query.ts'

/** Who may call a route. There is no default: a route without it fails at boot. */
export type Access = 'public' | 'user' | 'admin'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

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
  authenticate?: (request: AuthRequest, app: AppContext) => Promise<AuthUser | undefined>
}

export interface AuthRequest {
  headers: Record<string, string | string[] | undefined>
  cookies: { get(name: string): string | undefined }
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
