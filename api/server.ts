// The HTTP server around the Koa app: bounded header, request and idle times so slow clients
// cannot hold connections, and a close that lets in-flight requests finish.
import { createServer, type Server } from 'node:http'
import type { AppContext } from './app.ts'
import { createKoaApp } from './http/koa-app.ts'

export interface RunningApi {
  server: Server
  url: string
  close(): Promise<void>
}

/** Seconds a keep-alive connection may sit idle between requests. */
const KEEP_ALIVE_SECONDS = 5

export const createHttpServer = (app: AppContext): Server => {
  const timeoutMs = app.config.requestTimeout * 1000
  const server = createServer(
    {
      // The whole request (headers and body) must arrive within this time; headers sooner.
      requestTimeout: timeoutMs,
      headersTimeout: Math.min(timeoutMs, 10_000),
      // How often Node looks for connections past those limits.
      connectionsCheckingInterval: Math.min(1000, timeoutMs / 2),
    },
    createKoaApp(app).callback(),
  )
  server.keepAliveTimeout = KEEP_ALIVE_SECONDS * 1000
  return server
}

/** Listens; `close` stops taking connections and waits for in-flight requests. */
export const listen = (app: AppContext, port: number, host: string): Promise<RunningApi> =>
  new Promise((resolve, reject) => {
    const server = createHttpServer(app)
    server.once('error', reject)
    server.listen(port, host, () => {
      const address = server.address() as { port: number }
      resolve({
        server,
        url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
        close: () =>
          new Promise<void>((done) => {
            // Keep-alive connections go idle as their last response ends; close each then.
            const sweep = setInterval(() => server.closeIdleConnections(), 50)
            server.close(() => {
              clearInterval(sweep)
              done()
            })
            server.closeIdleConnections()
          }),
      })
    })
  })
