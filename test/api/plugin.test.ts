// Plugin assembly: dependency order, and clear errors for missing, disabled or cyclic
// dependencies and for routes without an access rule or declared twice.
import test from 'ava'
import type { AuthUser } from '../../api/auth/user.ts'
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

test('a handler of an authenticated route gets its caller, never undefined; a public one may get none', async (t) => {
  const seen: (string | undefined)[] = []
  const typed = definePlugin({
    name: 'typed',
    routes: [
      defineRoute({
        method: 'GET',
        path: '/typed/user.json',
        action: 'Typed.user',
        summary: 'user',
        auth: 'user',
        permission: 'none',
        handler: ({ user }) => {
          // Compiles only because the caller of a `user` route is never undefined.
          const id: string = user.id
          seen.push(id)
          return null
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/typed/public.json',
        action: 'Typed.public',
        summary: 'public',
        auth: 'public',
        permission: 'none',
        handler: ({ user }) => {
          // @ts-expect-error a guest calls a public route: the caller may be undefined
          const id: string = undefined as typeof user extends AuthUser ? never : typeof user
          return user?.id ?? id ?? null
        },
      }),
    ],
  })
  const api = await startTestApi(t, { plugins: [...plugins, testAuthPlugin, typed] })
  t.is((await api.request('/typed/user.json')).status, 401)
  t.deepEqual(seen, [], 'a guest never reaches the handler of a user route')
  t.is((await api.request('/typed/user.json', { role: 'user' })).status, 200)
  t.deepEqual(seen, ['00000000-0000-4000-8000-000000000002'])
  t.is((await api.request('/typed/public.json')).json.body, null)
  t.is(
    (await api.request('/typed/public.json', { role: 'user' })).json.body,
    '00000000-0000-4000-8000-000000000002',
  )
})

test('a plugin may read a disabled plugin: it boots, and the contains that plugin lends go with it', (t) => {
  const lent = {
    ...route('/items.json', 'user'),
    query: { contain: { own: {}, stars: { plugin: 'stars', load: async () => {} } } },
  }
  const reader = definePlugin({ name: 'items', reads: ['stars'], routes: [lent] })
  const stars = plugin('stars')
  const both = assemblePlugins([reader, stars])
  t.deepEqual(
    both.map((p) => p.name),
    ['stars', 'items'],
    'an enabled plugin it reads starts first',
  )
  t.deepEqual(Object.keys(both[1].routes?.[0].query?.contain ?? {}), ['own', 'stars'])
  const alone = assemblePlugins([reader, stars], ['stars'])
  t.deepEqual(
    alone.map((p) => p.name),
    ['items'],
  )
  t.deepEqual(Object.keys(alone[0].routes?.[0].query?.contain ?? {}), ['own'])
  t.throws(() => assemblePlugins([definePlugin({ name: 'a', reads: ['ghost'] })]), {
    message: 'plugin "a" reads unknown plugin "ghost"',
  })
})
