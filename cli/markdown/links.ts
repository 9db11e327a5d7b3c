// Resolves links and images written in Markdown, and checks every internal link of the built
// site: a missing page or file is an error, a missing anchor only a warning.
import { existsSync, readFileSync } from 'node:fs'
import { basename, dirname, extname, join, resolve } from 'node:path'
import { imageSize } from 'image-size'
import { hashOf } from '../cache/hash.ts'
import type { Diagnostics } from '../errors.ts'
import type { LinkRef, LinkResolution } from './data.ts'

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i

const splitHash = (href: string): [string, string] => {
  const index = href.search(/[?#]/)
  return index === -1 ? [href, ''] : [href.slice(0, index), href.slice(index)]
}

export interface ResolverContext {
  docsDir: string
  baseUrl: string
  /** Absolute Markdown file path to its route. */
  routeOfFile: Map<string, string>
}

/** Resolves a link written in `fromFile`: `.md` targets become routes, others are kept. */
export const resolveLink = (
  ctx: ResolverContext,
  href: string,
  fromFile: string,
): LinkResolution => {
  if (EXTERNAL.test(href)) return { url: href }
  const fromRoute = ctx.routeOfFile.get(fromFile) ?? ctx.baseUrl
  const [path, suffix] = splitHash(href)
  if (path === '') return { url: href, check: `${fromRoute}${suffix}` }
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    return { error: `malformed link "${href}"` }
  }
  if (decoded.endsWith('.md')) {
    const target = decoded.startsWith('/')
      ? join(ctx.docsDir, decoded)
      : resolve(dirname(fromFile), decoded)
    const route = ctx.routeOfFile.get(target)
    if (!route) return { error: `broken Markdown link "${href}": no such doc` }
    return { url: `${route}${suffix}`, check: `${route}${suffix}` }
  }
  const absolute = new URL(href, `http://site${fromRoute}`)
  return { url: href, check: `${absolute.pathname}${absolute.search}${absolute.hash}` }
}

/** Images next to the Markdown are copied under hashed names. */
export class AssetCollector {
  /** Source file to output path below the base URL, e.g. `assets/img/logo.1a2b3c4d.png`. */
  readonly copies = new Map<string, string>()
  /** Source file to its intrinsic size, when its format tells one. */
  private readonly sizes = new Map<string, { width: number; height: number }>()

  constructor(
    private readonly baseUrl: string,
    private readonly staticRoutes: (path: string) => boolean,
    /** Told of every image file next to the Markdown that a doc uses (`out` unset: missing). */
    private readonly onLocalImage?: (file: string, out: string | undefined) => void,
  ) {}

  resolveImage = (src: string, fromFile: string): LinkResolution => {
    if (EXTERNAL.test(src) || src.startsWith('data:')) return { url: src }
    const [path] = splitHash(src)
    if (path.startsWith('/')) {
      return this.staticRoutes(path)
        ? { url: src }
        : { error: `broken image "${src}": no such static file` }
    }
    const file = resolve(dirname(fromFile), decodeURI(path))
    const out = this.copyOf(file)
    this.onLocalImage?.(file, out)
    if (!out) return { error: `broken image "${src}": file not found` }
    return { url: `${this.baseUrl}${out}`, ...this.sizes.get(file) }
  }

  private copyOf(file: string): string | undefined {
    const known = this.copies.get(file)
    if (known) return known
    if (!existsSync(file)) return undefined
    const content = readFileSync(file)
    const hash = hashOf(content)
    const size = sizeOf(content)
    if (size) this.sizes.set(file, size)
    const ext = extname(file)
    const out = `assets/img/${basename(file, ext)}.${hash}${ext}`
    this.copies.set(file, out)
    return out
  }
}

/** Width and height in CSS pixels (EXIF rotation applied), or undefined for unknown formats. */
const sizeOf = (content: Uint8Array): { width: number; height: number } | undefined => {
  try {
    const { width, height, orientation } = imageSize(content)
    if (!width || !height) return undefined
    // Orientations 5 to 8 turn the picture a quarter.
    return orientation && orientation >= 5 ? { width: height, height: width } : { width, height }
  } catch {
    return undefined
  }
}

export interface LinkTarget {
  ids: Set<string>
}

export interface CheckedPage {
  displayPath: string
  links: LinkRef[]
}

/**
 * Checks internal links against the built routes and static files. Links outside the base
 * URL belong to other sites on the same host and are not checked.
 */
export const checkLinks = (
  pages: CheckedPage[],
  baseUrl: string,
  routes: Map<string, LinkTarget>,
  isFile: (path: string) => boolean,
  diagnostics: Diagnostics,
): void => {
  for (const page of pages) {
    for (const link of page.links) {
      const [rawPath, suffix] = splitHash(link.url)
      // Only an escape changes under decoding: most links have none, and a big site has many.
      let path = rawPath
      if (rawPath.includes('%'))
        try {
          path = decodeURI(rawPath)
        } catch {
          path = rawPath
        }
      if (!path.startsWith(baseUrl) && `${path}/` !== baseUrl) continue
      const target = routes.get(path) ?? routes.get(`${path}/`)
      if (!target) {
        if (!isFile(path))
          diagnostics.error({
            file: page.displayPath,
            line: link.line,
            message: `broken link to ${link.url}`,
          })
        continue
      }
      const hash = suffix.includes('#') ? suffix.slice(suffix.indexOf('#') + 1) : ''
      if (hash && !target.ids.has(safeDecode(hash)))
        diagnostics.warn({
          file: page.displayPath,
          line: link.line,
          message: `broken anchor in link to ${link.url}`,
        })
    }
  }
}

const safeDecode = (value: string): string => {
  if (!value.includes('%')) return value
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
