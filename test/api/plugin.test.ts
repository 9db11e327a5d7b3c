// Plugin assembly: dependency order, and clear errors for missing, disabled or cyclic
// dependencies and for routes without an access rule or declared twice.
import test from 'ava'
import { definePlugin, defineRoute, type Plugin } from '../../api/plugin.ts'
import { assemblePlugins, PluginError } from '../../api/plugin-loader.ts'
import { plugins } from '../../plugins/index.ts'
import { startTestApi, testAuthPlugin } from '../helpers/api.ts'

const plugin = (name: string, dependsOn: string[] = [], routes: Plugin['routes'] = []) =>
  definePlugin({ name, dependsOn, routes })
const route = (path: string, auth = 'public') =>
  defineRoute({
    method: 'GET',
    path,
    action: `X.${path}`,
    summary: path,
    auth: auth as 'public',
    permission: 'none',
    handler: () => null,
  })

test('plugins come after their dependencies, keeping the given order otherwise', (t) => {
  const ordered = assemblePlugins([plugin('c', ['b']), plugin('a'), plugin('b', ['a'])]).map(
    (p) => p.name,
  )
  t.deepEqual(ordered, ['a', 'b', 'c'])
})

test('a missing, disabled or cyclic dependency is a clear error', (t) => {
  t.throws(() => assemblePlugins([plugin('a', ['ghost'])]), {
    instanceOf: PluginError,
    message: 'plugin "a" depends on unknown plugin "ghost"',
  })
  t.throws(() => assemblePlugins([plugin('a'), plugin('b', ['a'])], ['a']), {
    message: 'plugin "b" depends on "a", which is disabled',
  })
  t.throws(() => assemblePlugins([plugin('a', ['b']), plugin('b', ['c']), plugin('c', ['a'])]), {
    message: 'plugin dependency cycle: a -> b -> c -> a',
  })
  t.throws(() => assemblePlugins([plugin('a')], ['nope']), {
    message: 'cannot disable unknown plugin "nope"',
  })
})

test('a route without a valid auth rule, or declared twice, stops the boot', (t) => {
  t.throws(() => assemblePlugins([plugin('a', [], [route('/x.json', 'anyone')])]), {
    message: 'route GET /x.json of plugin "a" declares no valid auth',
  })
  t.throws(
    () =>
      assemblePlugins([plugin('a', [], [route('/x.json')]), plugin('b', [], [route('/x.json')])]),
    {
      message: 'route GET /x.json is declared by both "a" and "b"',
    },
  )
})

test('a route without a permission declaration, or a policy on a public route, stops the boot', (t) => {
  const withoutPermission = { ...route('/x.json', 'user'), permission: undefined } as never
  t.throws(() => assemblePlugins([plugin('a', [], [withoutPermission])]), {
    message:
      'route GET /x.json of plugin "a" declares no permission (\'none\' or an access policy)',
  })
  const policy = {
    description: 'anything',
    refusals: [404],
    check: async () => undefined,
  } as const
  t.throws(
    () => assemblePlugins([plugin('a', [], [{ ...route('/x.json'), permission: policy }])]),
    {
      message:
        'route GET /x.json of plugin "a" is public but has an access policy, which needs a caller',
    },
  )
  t.notThrows(() =>
    assemblePlugins([plugin('a', [], [{ ...route('/x.json', 'user'), permission: policy }])]),
  )
  const needsParent = {
    ...route('/y.json', 'user'),
    query: { contain: { 'permissions.user': { requires: ['permissions'] } } },
  }
  t.throws(() => assemblePlugins([plugin('a', [], [needsParent])]), {
    message:
      'route GET /y.json of plugin "a": contain "permissions.user" requires undeclared "permissions"',
  })
})

test('the shipped plugins assemble, and disabling one removes its routes and its settings flags', async (t) => {
  const order = assemblePlugins(plugins).map((p) => p.name)
  t.deepEqual([...order].sort(), plugins.map((p) => p.name).sort())
  for (const shipped of plugins)
    for (const dependency of shipped.dependsOn ?? [])
      t.true(
        order.indexOf(dependency) < order.indexOf(shipped.name),
        `${dependency} before ${shipped.name}`,
      )
  const api = await startTestApi(t, {
    plugins: [...plugins, testAuthPlugin],
    env: { KEYWARD_DISABLED_PLUGINS: 'pages,jwt' },
  })
  t.is((await api.request('/auth/login')).status, 404)
  t.is((await api.request('/auth/jwt/rsa.json')).status, 404)
  t.is(
    (await api.request('/settings.json')).json.body.passbolt.plugins.jwtAuthentication,
    undefined,
  )
  const flags = definePlugin({
    name: 'flags',
    settings: () => ({ public: { probeFlag: { enabled: true } } }),
  })
  const withFlags = await startTestApi(t, { plugins: [...plugins, flags] })
  t.deepEqual((await withFlags.request('/settings.json')).json.body.passbolt.plugins.probeFlag, {
    enabled: true,
  })
  const withoutFlags = await startTestApi(t, {
    plugins: [...plugins, flags],
    env: { KEYWARD_DISABLED_PLUGINS: 'flags' },
  })
  t.is(
    (await withoutFlags.request('/settings.json')).json.body.passbolt.plugins.probeFlag,
    undefined,
  )
})
