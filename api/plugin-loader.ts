// The plugin loader: keeps the enabled plugins, orders them by dependency, and refuses a set
// whose routes are incomplete (no auth, no permission, a contain that needs an undeclared one)
// or declared twice.
import type { Access, Plugin, Route } from './plugin.ts'

export class PluginError extends Error {
  override name = 'PluginError'
}

const ACCESS: readonly Access[] = ['public', 'user', 'admin']

const checkRoute = (plugin: Plugin, route: Route) => {
  const where = `route ${route.method} ${route.path} of plugin "${plugin.name}"`
  if (!ACCESS.includes(route.auth)) throw new PluginError(`${where} declares no valid auth`)
  const permission = route.permission as unknown
  const isPolicy =
    typeof permission === 'object' &&
    permission !== null &&
    typeof (permission as { check?: unknown }).check === 'function'
  if (permission !== 'none' && !isPolicy)
    throw new PluginError(`${where} declares no permission ('none' or an access policy)`)
  if (isPolicy && route.auth === 'public')
    throw new PluginError(`${where} is public but has an access policy, which needs a caller`)
  const contain = route.query?.contain ?? {}
  for (const [name, spec] of Object.entries(contain))
    for (const required of spec.requires ?? [])
      if (!(required in contain))
        throw new PluginError(`${where}: contain "${name}" requires undeclared "${required}"`)
}

/** The plugin with its routes' contains lent by disabled plugins left out. */
const withoutDisabledContains = (plugin: Plugin, disabled: readonly string[]): Plugin => {
  const lentByDisabled = (route: Route) =>
    Object.values(route.query?.contain ?? {}).some(
      (spec) => spec.plugin !== undefined && disabled.includes(spec.plugin),
    )
  if (!plugin.routes?.some(lentByDisabled)) return plugin
  return {
    ...plugin,
    routes: plugin.routes.map((route) => {
      if (!lentByDisabled(route) || !route.query?.contain) return route
      const contain = Object.fromEntries(
        Object.entries(route.query.contain).filter(
          ([, spec]) => spec.plugin === undefined || !disabled.includes(spec.plugin),
        ),
      )
      return { ...route, query: { ...route.query, contain } }
    }),
  }
}

/**
 * Keeps the enabled plugins and orders them so each comes after what it depends on.
 * Throws on a dependency that is missing or disabled, on a cycle, and on a bad route.
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
    for (const dependency of plugin.reads ?? []) {
      const target = byName.get(dependency)
      if (!target)
        throw new PluginError(`plugin "${plugin.name}" reads unknown plugin "${dependency}"`)
      if (!disabled.includes(dependency)) visit(target, [...chain, plugin.name])
    }
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

  const lent = ordered.map((plugin) => withoutDisabledContains(plugin, disabled))
  const seen = new Map<string, string>()
  for (const plugin of lent)
    for (const route of plugin.routes ?? []) {
      checkRoute(plugin, route)
      const key = `${route.method} ${route.path}`
      const owner = seen.get(key)
      if (owner)
        throw new PluginError(`route ${key} is declared by both "${owner}" and "${plugin.name}"`)
      seen.set(key, plugin.name)
    }
  return lent
}
