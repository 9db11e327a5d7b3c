// Render worker of `docs build`: renders Markdown for batches of docs, then renders and writes
// batches of pages, so a big site uses every core. With the build cache, the HTML and sections
// of each doc it renders go straight to the cache's files, and a page's HTML is read back from
// there when the page is written: the main thread never holds them.
import type { SiteModel } from '../../model/site-model.ts'
import { renderPage } from '../../templates/render.tsx'
import { renderKeyOf } from '../cache/build-cache.ts'
import { RenderedFiles, readRendered } from '../cache/rendered-files.ts'
import { withHtml } from '../content/pages.ts'
import { writePage } from '../output/output.ts'
import { serveRequests } from '../workers/channel.ts'
import type { RenderOutcome } from './doc-deps.ts'
import { createDocRenderer, type DocRenderer } from './doc-renderer.ts'
import type { WorkerRequest, WorkerResponse } from './render-pool.ts'

let renderer: DocRenderer
let store: RenderedFiles | undefined
let site: SiteModel
let outDir = ''
let render = renderPage

/** The outcome to hand back: without its HTML and sections once they are in the cache. */
const handOver = (outcome: RenderOutcome): RenderOutcome => {
  if (!store) return outcome
  const renderKey = renderKeyOf(outcome)
  const { rendered } = outcome.result
  store.write(renderKey, rendered)
  return {
    ...outcome,
    result: { ...outcome.result, rendered: { ...rendered, html: '', sections: [] } },
    stored: renderKey,
  }
}

const handle = async (request: WorkerRequest): Promise<WorkerResponse> => {
  switch (request.type) {
    case 'init':
      renderer = await createDocRenderer(request)
      store = request.renderedDir ? new RenderedFiles(request.renderedDir) : undefined
      return { type: 'ready' }
    case 'markdown':
      return {
        type: 'markdown',
        outcomes: request.docs.map((doc) => handOver(renderer.render(doc))),
      }
    case 'site':
      site = request.site
      outDir = request.outDir
      render = request.templates ? (await import(request.templates)).renderPage : renderPage
      return { type: 'written' }
    case 'pages':
      for (const { page, file } of request.pages) {
        const shown = file ? withHtml(page, readRendered(file).html) : page
        writePage(outDir, shown, render(site, shown))
      }
      return { type: 'written' }
  }
}

serveRequests(handle)
