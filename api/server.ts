// The HTTP server around the Koa app: bounded header, request and idle times so slow clients
// cannot hold connections, and a close that lets in-flight requests finish. With a certificate
// it serves HTTPS itself (HTTP/2, and HTTP/1.1 for clients that do not offer it), and takes
// renewed certificate files without a restart.
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createSecureServer, type Http2SecureServer } from 'node:http2'
import type { SecureContextOptions } from 'node:tls'
import type { AppContext } from './app.ts'
import { answerClientError } from './http/client-error.ts'
import { createKoaApp } from './http/koa-app.ts'

export interface RunningApi {
  server: Server | Http2SecureServer
  url: string
  close(): Promise<void>
  /** Reads the certificate and key files again (HTTPS only); new connections use them. */
  reloadCertificates(): void
}

/** PEM files of the server's certificate (with its chain) and private key. */
export interface TlsFiles {
  cert: string
  key: string
}

export interface ListenOptions {
  /** Serve HTTPS with these files instead of plain HTTP. */
  tls?: TlsFiles
}

/** Seconds a keep-alive connection may sit idle between requests. */
const KEEP_ALIVE_SECONDS = 5

/**
 * TLS 1.2 and 1.3 only; for TLS 1.2, forward-secret AEAD suites only (the TLS 1.3 suites are
 * all of that kind and stay OpenSSL's defaults).
 */
export const TLS_SETTINGS = {
  minVersion: 'TLSv1.2',
  ciphers: [
    'TLS_AES_128_GCM_SHA256',
    'TLS_AES_256_GCM_SHA384',
    'TLS_CHACHA20_POLY1305_SHA256',
    'ECDHE-ECDSA-AES128-GCM-SHA256',
    'ECDHE-RSA-AES128-GCM-SHA256',
    'ECDHE-ECDSA-AES256-GCM-SHA384',
    'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-ECDSA-CHACHA20-POLY1305',
    'ECDHE-RSA-CHACHA20-POLY1305',
  ].join(':'),
  ecdhCurve: 'X25519:prime256v1:secp384r1',
} as const satisfies SecureContextOptions

export class TlsFilesError extends Error {
  override name = 'TlsFilesError'
}

/** The certificate and key read from their files, refused early when they are not PEM. */
export const readTlsFiles = (files: TlsFiles): { cert: Buffer; key: Buffer } => {
  const read = (path: string, marker: RegExp, what: string) => {
    let content: Buffer
    try {
      content = readFileSync(path)
    } catch (error) {
      throw new TlsFilesError(`TLS ${what} ${path}: ${(error as NodeJS.ErrnoException).code}`)
    }
    if (!marker.test(content.toString('latin1')))
      throw new TlsFilesError(`TLS ${what} ${path}: not a PEM ${what}`)
    return content
  }
  return {
    cert: read(files.cert, /-----BEGIN CERTIFICATE-----/, 'certificate'),
    key: read(files.key, /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/, 'key'),
  }
}

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
  server.on('clientError', answerClientError)
  return server
}

/** Two years: browsers then refuse plain HTTP to this host, as passbolt's guide recommends. */
export const HSTS = 'max-age=63072000'

const withHsts =
  (handler: (req: IncomingMessage, res: ServerResponse) => unknown) =>
  (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('Strict-Transport-Security', HSTS)
    return handler(req, res)
  }

export const createHttpsServer = (app: AppContext, files: TlsFiles): Http2SecureServer => {
  const timeoutMs = app.config.requestTimeout * 1000
  const server = createSecureServer(
    {
      ...readTlsFiles(files),
      ...TLS_SETTINGS,
      allowHTTP1: true,
      // An HTTP/2 client may open many streams on one connection; bound them as browsers do.
      settings: { maxConcurrentStreams: 100 },
    },
    withHsts(createKoaApp(app).callback()) as never,
  )
  // Sockets (HTTP/1.1) and sessions (HTTP/2) silent for this long are closed: a slow client
  // cannot hold a connection open.
  server.setTimeout(timeoutMs)
  return server
}

const urlOf = (scheme: string, host: string, port: number) =>
  `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`

/** Listens; `close` stops taking connections and waits for in-flight requests. */
export const listen = (
  app: AppContext,
  port: number,
  host: string,
  options: ListenOptions = {},
): Promise<RunningApi> =>
  new Promise((resolve, reject) => {
    const { tls } = options
    const server = tls ? createHttpsServer(app, tls) : createHttpServer(app)
    const sessions = new Set<import('node:http2').ServerHttp2Session>()
    // HTTP/1.1 sockets of the HTTPS server and how many requests each has in flight: the
    // compatibility layer has no closeIdleConnections.
    const sockets = new Map<import('node:net').Socket, number>()
    let closing = false
    if (tls) {
      const secure = server as Http2SecureServer
      secure.on('session', (session) => {
        sessions.add(session)
        session.once('close', () => sessions.delete(session))
      })
      secure.on('secureConnection', (socket) => {
        if (socket.alpnProtocol === 'h2') return
        sockets.set(socket, 0)
        socket.once('close', () => sockets.delete(socket))
      })
      secure.on('request', (request, response) => {
        const socket = request.socket as import('node:net').Socket
        if (!sockets.has(socket)) return
        sockets.set(socket, (sockets.get(socket) ?? 0) + 1)
        response.once('close', () => {
          const left = (sockets.get(socket) ?? 1) - 1
          sockets.set(socket, left)
          if (closing && left === 0) socket.end()
        })
      })
    }
    server.once('error', reject)
    server.listen(port, host, () => {
      const address = server.address() as { port: number }
      resolve({
        server,
        url: urlOf(tls ? 'https' : 'http', host, address.port),
        reloadCertificates: () => {
          if (!tls)
            return // A renewal half-written (key without its certificate) throws here and the running
            // certificate stays.
          ;(server as Http2SecureServer).setSecureContext({ ...readTlsFiles(tls), ...TLS_SETTINGS })
        },
        close: () =>
          new Promise<void>((done) => {
            if (tls) {
              // HTTP/2 sessions end once their open streams have; HTTP/1.1 sockets as below.
              closing = true
              for (const session of sessions) session.close()
              for (const [socket, inFlight] of sockets) if (inFlight === 0) socket.end()
              server.close(() => done())
              return
            }
            const plain = server as Server
            // Keep-alive connections go idle as their last response ends; close each then.
            const sweep = setInterval(() => plain.closeIdleConnections(), 50)
            plain.close(() => {
              clearInterval(sweep)
              done()
            })
            plain.closeIdleConnections()
          }),
      })
    })
  })
