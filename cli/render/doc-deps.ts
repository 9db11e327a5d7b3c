// What a doc's rendering depends on besides its source: the site's routes, static files and
// images, as the renderer looked them up. Kept apart from the renderer (cli/render/doc-renderer.ts), so
// a build that takes every doc from the cache checks the lookups without loading the Markdown
// pipeline.
import { existsSync, readFileSync } from 'node:fs'
import { hashOf } from '../cache/hash.ts'
import type { PluginRef } from '../markdown/site-plugins.ts'
import type { DocRenderResult } from './render-doc.ts'

/** What a renderer needs to know about the site; plain data, so it crosses to workers. */
export interface RendererInit {
  docsDir: string
  baseUrl: string
  /** Markdown file to route, for every doc. */
  routes: [string, string][]
  /** Static files as URL paths below the base URL. */
  staticFiles: string[]
  /** The site's Markdown plugins. */
  plugins: PluginRef[]
}

/**
 * A lookup the rendering depended on and its answer: `route` (a Markdown file's route, '' when
 * no such doc), `static` (a static file exists: '1' or ''), `image` (an image file's content
 * hash, '' when missing).
 */
export type Dependency = [kind: 'route' | 'static' | 'image', key: string, answer: string]

/** One doc's rendering as the renderer hands it over: plain data, so it crosses to workers. */
export interface RenderOutcome {
  result: DocRenderResult
  deps: Dependency[]
  /** Images this doc copies: source file to output path below the base URL. */
  copies: [string, string][]
  /**
   * Set by a render worker that wrote the rendering's HTML and sections into the build cache
   * itself (cli/cache/rendered-files.ts): the key of that file. They are then left out here, so
   * the main thread never holds every doc's HTML.
   */
  stored?: string
}

/** Image hashes, read once per file and run. */
export const imageHasher = () => {
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
