// A TLS front for a test server, as a reverse proxy terminates HTTPS in front of Keyward in
// production: it decrypts with the fixture certificate (self-signed, 127.0.0.1) and forwards
// the bytes to the plain-HTTP server. Browsers reach it with certificate errors ignored.
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { createServer } from 'node:tls'
import { fileURLToPath } from 'node:url'
import type { ExecutionContext } from 'ava'

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../fixtures/tls/${name}`, import.meta.url)))

/** Listens on `port` (0 for any) and forwards every connection to 127.0.0.1:`target`. */
export const startTlsProxy = async (t: ExecutionContext, port: number, target: () => number) => {
  const sockets = new Set<import('node:net').Socket>()
  const server = createServer({ key: fixture('key.pem'), cert: fixture('cert.pem') }, (client) => {
    const upstream = connect(target(), '127.0.0.1')
    sockets.add(client).add(upstream)
    const close = () => {
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
    }
    client.on('error', close).on('close', close)
    upstream.on('error', close).on('close', close)
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  )
  return `https://127.0.0.1:${(server.address() as { port: number }).port}`
}
