// The one place the Markdown processor is wired to the site: link and image resolvers over the
// site's routes and static files. The builder and the render workers both render through it.
// Every lookup a render makes is recorded, so the build cache can tell whether a cached
// rendering still holds (a linked page moved, an image changed).
import { existsSync, readFileSync } from 'node:fs'
import { hashOf } from './assets.ts'
import type { DocSource } from './content.ts'
import { AssetCollector, resolveLink } from './links.ts'
import { createProcessor } from './markdown.ts'
import { type DocRenderResult, renderDoc } from './render-doc.ts'

/** What a renderer needs to know about the site; plain data, so it crosses to workers. */
export interface RendererInit {
  docsDir: string
  baseUrl: string
  /** Markdown file to route, for every doc. */
  routes: [string, string][]
  /** Static files as URL paths below the base URL. */
  staticFiles: string[]
}

/**
 * A lookup the rendering depended on and its answer: `route` (a Markdown file's route, '' when
 * no such doc), `static` (a static file exists: '1' or ''), `image` (an image file's content
 * hash, '' when missing).
 */
export type Dependency = [kind: 'route' | 'static' | 'image', key: string, answer: string]

export interface RenderOutcome {
  result: DocRenderResult
  deps: Dependency[]
  /** Images this doc copies: source file to output path below the base URL. */
  copies: [string, string][]
}

/** Image hashes, read once per file and run. */
const imageHasher = () => {
  const hashes = new Map<string, string>()
  return (file: string) => {
    let hash = hashes.get(file)
    if (hash === undefined) {
      hash = existsSync(file) ? hashOf(readFileSync(file)) : ''
      hashes.set(file, hash)
    }
    return hash
  }
}

export const createDocRenderer = (init: RendererInit) => {
  const routeOfFile = new Map(init.routes)
  const staticFiles = new Set(init.staticFiles)
  const imageHash = imageHasher()
  let deps: Dependency[] = []
  let copies: [string, string][] = []
  const recordingRoutes = {
    get: (file: string) => {
      const route = routeOfFile.get(file)
      deps.push(['route', file, route ?? ''])
      return route
    },
  } as Map<string, string>
  const ctx = { docsDir: init.docsDir, baseUrl: init.baseUrl, routeOfFile: recordingRoutes }
  const assets = new AssetCollector(
    init.baseUrl,
    (path) => {
      const found = staticFiles.has(path)
      deps.push(['static', path, found ? '1' : ''])
      return found
    },
    (file, out) => {
      deps.push(['image', file, imageHash(file)])
      if (out) copies.push([file, out])
    },
  )
  const processor = createProcessor({
    resolveLink: (href, from) => resolveLink(ctx, href, from),
    resolveImage: assets.resolveImage,
  })
  return {
    render(source: DocSource): RenderOutcome {
      deps = []
      copies = []
      const result = renderDoc(processor, source)
      return { result, deps, copies }
    },
  }
}

export type DocRenderer = ReturnType<typeof createDocRenderer>

/** Tells whether every lookup a rendering recorded still gives the same answer on this site. */
export const createDepsCheck = (init: RendererInit) => {
  const routeOfFile = new Map(init.routes)
  const staticFiles = new Set(init.staticFiles)
  const imageHash = imageHasher()
  return (deps: Dependency[]): boolean =>
    deps.every(([kind, key, answer]) => {
      if (kind === 'route') return (routeOfFile.get(key) ?? '') === answer
      if (kind === 'static') return (staticFiles.has(key) ? '1' : '') === answer
      return imageHash(key) === answer
    })
}
