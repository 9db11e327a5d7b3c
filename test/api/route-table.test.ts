// The route table files each route under its first path segment: a request reaches the same
// route as one router holding them all would give it, whatever the case of its path.
import type { AddressInfo } from 'node:net'
import test from 'ava'
import Koa from 'koa'
import type { State } from '../../api/http/respond.ts'
import { RouteTable } from '../../api/http/route-table.ts'

const serve = async (t: { teardown: (fn: () => void) => void }, table: RouteTable) => {
  const koa = new Koa<State>()
  koa.use(table.middleware())
  koa.use((ctx) => {
    ctx.body = `none ${table.methodsOf(ctx.path).join(',')}`
  })
  const server = koa.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  t.teardown(() => server.close())
  const { port } = server.address() as AddressInfo
  return async (method: string, path: string) =>
    (await fetch(`http://127.0.0.1:${port}${path}`, { method })).text()
}

const answering =
  (text: string): Koa.Middleware<State> =>
  (ctx) => {
    ctx.body = text
  }

test('each request reaches the first matching route of its segment, or a parameter segment', async (t) => {
  const table = new RouteTable()
  table.register('/users/me.json', 'GET', answering('me'))
  table.register('/users.json', 'GET', answering('list'))
  table.register('/users/:id.json', 'GET', answering('view'))
  table.register('/users/:id.json', 'PUT', answering('update'))
  table.register('/users-extra/:id.json', 'GET', answering('extra'))
  table.register('/', 'GET', answering('root'))
  table.register('/app{/*rest}', 'GET', answering('app'))
  table.register('/:page', 'GET', answering('page'))
  const call = await serve(t, table)
  const answers: [method: string, path: string, answer: string][] = [
    ['GET', '/users/me.json', 'me'],
    ['GET', '/USERS/Me.json', 'me'],
    ['GET', '/users.json', 'list'],
    ['GET', '/users/abc.json', 'view'],
    ['PUT', '/users/abc.json', 'update'],
    ['GET', '/users-extra/abc.json', 'extra'],
    ['GET', '/', 'root'],
    ['GET', '/about', 'page'],
    ['GET', '/app', 'app'],
    ['GET', '/app/settings/mobile', 'app'],
  ]
  for (const [method, path, answer] of answers) t.is(await call(method, path), answer, path)
  // No route of that method: the next middleware learns which methods the path has.
  t.is(await call('DELETE', '/users/abc.json'), 'none HEAD,GET,PUT')
  t.is(await call('DELETE', '/groups/abc.json'), 'none ')
})
