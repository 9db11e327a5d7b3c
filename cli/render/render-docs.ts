// Renders the Markdown of many docs: cached renderings that still hold are reused, the rest are
// rendered in this thread or, when there are many, by a pool of render workers (which the
// build then also uses to write the pages; with the cache, they write each rendering's HTML
// and sections to it, and this thread reads them only if it needs them). The Markdown pipeline loads only when a doc needs it.
import { type BuildCache, renderKeyOf } from '../cache/build-cache.ts'
import type { DocSource } from '../content/content.ts'
import type { RenderOutcome } from './doc-deps.ts'
import { createDepsCheck, type RendererInit } from './doc-deps.ts'
import { defaultPoolSize, POOL_THRESHOLD, RenderPool } from './render-pool.ts'

export interface RenderedDocs {
  outcomes: RenderOutcome[]
  /** The key of each rendering (cli/cache/build-cache.ts `renderKeyOf`). */
  renderKeys: string[]
  /** Started when enough docs needed rendering; the caller closes it. */
  pool?: RenderPool
  /** How many docs came from the cache. */
  cached: number
}

export interface RenderOptions {
  cache?: BuildCache
  workers?: number
  /** Called before rendering when some docs missed the cache. */
  onMisses?: () => void
  /** Workers started early (a cold build): used if enough docs miss, else ended. */
  pool?: RenderPool
}

/** Ends `options.pool` when rendering fails, so its workers do not outlive the build. */
export const renderDocs = async (
  sources: DocSource[],
  init: RendererInit,
  options: RenderOptions,
): Promise<RenderedDocs> => {
  try {
    return await renderWith(sources, init, options)
  } catch (error) {
    await options.pool?.close()
    throw error
  }
}

const renderWith = async (
  sources: DocSource[],
  init: RendererInit,
  options: RenderOptions,
): Promise<RenderedDocs> => {
  const { cache } = options
  const holds = createDepsCheck(init)
  const outcomes: RenderOutcome[] = new Array(sources.length)
  const renderKeys: string[] = new Array(sources.length)
  const misses: number[] = []
  sources.forEach((source, i) => {
    const hit = cache?.lookup(source, (outcome) => holds(outcome.deps))
    if (hit) {
      outcomes[i] = hit.outcome
      renderKeys[i] = hit.renderKey
    } else misses.push(i)
  })
  if (misses.length) options.onMisses?.()
  // Each rendering is kept (and its HTML written to the cache) as it comes, while the workers
  // render the next docs.
  const keep = (n: number, outcome: RenderOutcome) => {
    const i = misses[n]
    renderKeys[i] = outcome.stored ?? renderKeyOf(outcome)
    outcomes[i] = cache ? cache.store(sources[i], outcome, renderKeys[i]) : outcome
  }
  const size = options.workers ?? defaultPoolSize()
  let pool: RenderPool | undefined
  if (size >= 2 && misses.length >= POOL_THRESHOLD) {
    const started = options.pool ?? RenderPool.spawn(size)
    try {
      // The workers keep each doc's HTML and sections in the cache's files, not this thread.
      await started.init(init, cache?.renderedDir)
      await started.renderMarkdown(
        misses.map((i) => sources[i]),
        (start, rendered) => {
          rendered.forEach((outcome, n) => {
            keep(start + n, outcome)
          })
        },
      )
    } catch (error) {
      await started.close()
      throw error
    }
    pool = started
  } else {
    await options.pool?.close()
    if (misses.length) {
      const { createDocRenderer } = await import('./doc-renderer.ts')
      const renderer = await createDocRenderer(init)
      misses.forEach((i, n) => {
        keep(n, renderer.render(sources[i]))
      })
    }
  }
  return { outcomes, renderKeys, pool, cached: sources.length - misses.length }
}
