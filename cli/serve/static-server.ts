// Serves a built site the way production should: `.html` and `/index.html` paths redirect to
// the plain route, a folder without its trailing slash redirects, everything unmatched is the
// site's 404 page: that of the locale the path is below (`<base><code>/404.html`) when the site
// has one.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join, normalize, sep } from 'node:path'
import { gzipSync } from 'node:zlib'
import { lookup } from 'mrmime'

export interface StaticOptions {
  /** Output folder (holds `<baseUrl>` inside). */
  dir: string
  baseUrl: string
  /** Gzip text for clients that accept it (the preview, like production; not the dev server,
   * whose loopback responses change with every edit). */
  compress?: boolean
}

const isFile = (path: string) => {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

const redirect = (res: ServerResponse, location: string, status = 301) => {
  res.writeHead(status, { location, 'content-length': 0 })
  res.end()
}

/** Returns a request handler for the built tree in `options.dir`. */
export const createStaticHandler = (options: StaticOptions) => {
  const root = normalize(options.dir)
  const notFoundFile = join(root, ...options.baseUrl.split('/').filter(Boolean), '404.html')

  /** The 404 page of the locale whose segment follows the base URL in `path`, if it has one. */
  const localeNotFound = (path: string | undefined) => {
    if (!path?.startsWith(options.baseUrl)) return undefined
    const segment = path.slice(options.baseUrl.length).split('/')[0]
    if (!/^[a-z0-9][a-z0-9._-]*$/i.test(segment) || segment.includes('..')) return undefined
    const file = join(notFoundFile, '..', segment, '404.html')
    return isFile(file) ? file : undefined
  }

  const notFound = (res: ServerResponse, head: boolean, path?: string) => {
    const page = localeNotFound(path) ?? notFoundFile
    const body = existsSync(page) ? readFileSync(page) : Buffer.from('Not Found')
    res.writeHead(404, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': body.length,
    })
    res.end(head ? undefined : body)
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    const head = req.method === 'HEAD'
    if (req.method !== 'GET' && !head) {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-length': 0 })
      res.end()
      return
    }
    const url = new URL(req.url ?? '/', 'http://localhost')
    let path: string
    try {
      path = decodeURIComponent(url.pathname)
    } catch {
      notFound(res, head)
      return
    }
    if (path.includes('\0')) {
      notFound(res, head)
      return
    }
    if (path === '/' && options.baseUrl !== '/') {
      redirect(res, options.baseUrl + url.search, 302)
      return
    }
    if (path.endsWith('/index.html')) {
      redirect(res, url.pathname.slice(0, -'index.html'.length) + url.search)
      return
    }
    if (path.endsWith('.html') && !path.endsWith('/404.html')) {
      redirect(res, `${url.pathname.slice(0, -'.html'.length)}/${url.search}`)
      return
    }
    const file = normalize(join(root, path))
    if (file !== root && !file.startsWith(root + sep)) {
      notFound(res, head)
      return
    }
    if (!path.endsWith('/') && send(req, res, file, head, !!options.compress)) return
    if (isFile(join(file, 'index.html'))) {
      if (!path.endsWith('/')) {
        redirect(res, `${url.pathname}/${url.search}`)
        return
      }
      if (send(req, res, join(file, 'index.html'), head, !!options.compress)) return
    }
    notFound(res, head, path)
  }
}

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/

/** Gzipped bodies by file, kept while the file is unchanged (hashed assets never change). */
const gzipped = new Map<string, { mtimeMs: number; body: Buffer }>()
const gzipOf = (file: string, mtimeMs: number): Buffer => {
  const cached = gzipped.get(file)
  if (cached?.mtimeMs === mtimeMs) return cached.body
  const body = gzipSync(readFileSync(file))
  gzipped.set(file, { mtimeMs, body })
  return body
}

const send = (
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  head: boolean,
  allowGzip: boolean,
): boolean => {
  const type = lookup(file) ?? 'application/octet-stream'
  const hashed = /\.[0-9A-Za-z]{8}\.\w+$/.test(file)
  const compress =
    allowGzip &&
    COMPRESSIBLE.test(type) &&
    /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))
  let size: number
  let body: Buffer | undefined
  // A build running beside the server replaces and removes files: one gone since the request
  // came is not found, rather than an error thrown out of the request.
  try {
    const stats = statSync(file)
    if (!stats.isFile()) return false
    size = stats.size
    body = compress ? gzipOf(file, stats.mtimeMs) : undefined
  } catch {
    return false
  }
  res.writeHead(200, {
    'content-type':
      type.startsWith('text/') || type.endsWith('javascript') || type.endsWith('json')
        ? `${type}; charset=utf-8`
        : type,
    'content-length': body ? body.length : size,
    'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
    vary: 'accept-encoding',
    ...(body ? { 'content-encoding': 'gzip' } : {}),
  })
  if (head) res.end()
  else if (body) res.end(body)
  // Gone between its size and its opening: the headers are out, so the answer is cut.
  else
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res)
  return true
}
