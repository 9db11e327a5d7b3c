// Renders the Markdown of many docs: cached renderings that still hold are reused, the rest are
// rendered in this thread or, when there are many, by a pool of render workers (which the
// build then also uses to write the pages). The Markdown pipeline loads only when a doc needs it.
import { type BuildCache, renderKeyOf } from './build-cache.ts'
import type { DocSource } from './content.ts'
import { createDepsCheck, type RendererInit } from './doc-deps.ts'
import type { RenderOutcome } from './doc-renderer.ts'
import { defaultPoolSize, POOL_THRESHOLD, RenderPool } from './render-pool.ts'

export interface RenderedDocs {
  outcomes: RenderOutcome[]
  /** The key of each rendering (cli/build-cache.ts `renderKeyOf`). */
  renderKeys: string[]
  /** Started when enough docs needed rendering; the caller closes it. */
  pool?: RenderPool
  /** How many docs came from the cache. */
  cached: number
}

export const renderDocs = async (
  sources: DocSource[],
  init: RendererInit,
  options: {
    cache?: BuildCache
    workers?: number
    /** Called before rendering when some docs missed the cache. */
    onMisses?: () => void
  },
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
  const size = options.workers ?? defaultPoolSize()
  let pool: RenderPool | undefined
  if (size >= 2 && misses.length >= POOL_THRESHOLD) {
    pool = await RenderPool.start(size, init)
    const rendered = await pool.renderMarkdown(misses.map((i) => sources[i]))
    misses.forEach((i, n) => {
      outcomes[i] = rendered[n]
    })
  } else if (misses.length) {
    const { createDocRenderer } = await import('./doc-renderer.ts')
    const renderer = createDocRenderer(init)
    for (const i of misses) outcomes[i] = renderer.render(sources[i])
  }
  for (const i of misses) {
    renderKeys[i] = renderKeyOf(outcomes[i])
    cache?.store(sources[i], outcomes[i], renderKeys[i])
  }
  return { outcomes, renderKeys, pool, cached: sources.length - misses.length }
}
