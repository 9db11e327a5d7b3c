// The pages step of a full build: each page's key (the templates, the site and what the page
// shows), then the pages whose files are stale, written by the render workers when there are
// many (a cold build, a template edit, the dev server's first build), else in this thread; then
// the special pages (landing, 404, search).
import type { SiteModel } from '../../model/site-model.ts'
import type { ApiReferencePage } from '../api-reference/reference.tsx'
import type { DocState, SiteDocs } from '../content/site-docs.ts'
import type { KeyedPage, SiteOutput } from '../output/site-output.ts'
import { SiteOutput as Output } from '../output/site-output.ts'
import type { RendererInit } from '../render/doc-deps.ts'
import { POOL_THRESHOLD, RenderPool } from '../render/render-pool.ts'

export interface PagesStep {
  site: SiteModel
  /** What every page's files depend on besides the page (./site-output.ts `siteKey`). */
  siteKey: string
  docs: SiteDocs
  apiReference: ApiReferencePage | undefined
  output: SiteOutput
  /** Keys matter only to the next build, through the cache. */
  keyed: boolean
  /** The render workers still running from the Markdown step, if any. */
  pool: RenderPool | undefined
  poolSize: number
  init: RendererInit
  outDir: string
  /** The templates bundled with the site's overrides, if any. */
  templates: string | undefined
  /** The build cache's file holding a rendering's HTML, if it has one (a worker reads it). */
  renderedFile?: (renderKey: string) => string | undefined
}

/** Writes the pages whose files are stale; resolves with every route of the site. */
export const writePages = async (step: PagesStep): Promise<string[]> => {
  const { site, siteKey, docs, apiReference, output } = step
  const pages: (KeyedPage & { state?: DocState })[] = docs.states.map((state) => {
    const page = docs.pageOutline(state)
    return { page, state, key: step.keyed ? Output.pageKey(siteKey, page, state.renderKey) : '' }
  })
  if (apiReference) {
    for (const page of docs.generatedPages(apiReference.page))
      pages.push({ page, key: Output.pageKey(siteKey, page) })
    output.writeFiles(apiReference.files)
  }
  const stale = output.stalePages(pages)
  let { pool } = step
  const many = stale.length >= POOL_THRESHOLD
  const started = !pool && step.poolSize >= 2 && many
  if (started) pool = await RenderPool.start(step.poolSize, step.init)
  try {
    if (pool && many) {
      // A doc's HTML goes to the worker by the name of its cache file, not through this thread.
      const toWrite = stale.map(({ page, state }) => {
        const file = state && step.renderedFile?.(state.renderKey)
        return file ? { page, file } : { page: state ? docs.pageModel(state) : page }
      })
      await pool.writePages(site, toWrite, step.outDir, step.templates)
      output.recordPages(stale)
    } else
      for (const { page, state, key } of stale)
        await output.writePage(site, { page: state ? docs.pageModel(state) : page, key })
  } finally {
    // The render workers' heaps are not needed for what is left; freeing them lowers the peak.
    await pool?.close()
  }
  const routes = pages.map(({ page }) => page.route)
  routes.push(...(await output.writeSpecialPages(site, docs, siteKey)))
  return routes
}
