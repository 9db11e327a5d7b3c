// The ceiling for the API benchmarks: a bare Koa route that runs one `SELECT 1` through the
// ORM's pool (same driver, same pool size as the API) and answers a small JSON body.
// Usage: node bin/run.js bench/ceiling-server.ts PORT DATABASE_URL
import Koa from 'koa'
import { createOrm } from '../api/orm.ts'

const [port, url] = process.argv.slice(2)
const orm = await createOrm({ url, entities: [] })
const app = new Koa()
app.use(async (ctx) => {
  const em = orm.em.fork()
  const [row] = await em.execute('select 1 as one')
  ctx.type = 'application/json'
  ctx.body = JSON.stringify({ header: { status: 'success', code: 200 }, body: row })
})
app.listen(Number(port), '127.0.0.1', () => console.log('listening on', port))
