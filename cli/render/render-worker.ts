// Render worker of `docs build`: renders Markdown for batches of docs, then renders and writes
// batches of pages, so a big site uses every core.
import type { SiteModel } from '../../model/site-model.ts'
import { renderPage } from '../../templates/render.tsx'
import { writePage } from '../output/output.ts'
import { serveRequests } from '../workers/channel.ts'
import { createDocRenderer, type DocRenderer } from './doc-renderer.ts'
import type { WorkerRequest, WorkerResponse } from './render-pool.ts'

let renderer: DocRenderer
let site: SiteModel
let outDir = ''
let render = renderPage

const handle = async (request: WorkerRequest): Promise<WorkerResponse> => {
  switch (request.type) {
    case 'init':
      renderer = await createDocRenderer(request)
      return { type: 'ready' }
    case 'markdown':
      return { type: 'markdown', outcomes: request.docs.map((doc) => renderer.render(doc)) }
    case 'site':
      site = request.site
      outDir = request.outDir
      render = request.templates ? (await import(request.templates)).renderPage : renderPage
      return { type: 'written' }
    case 'pages':
      for (const page of request.pages) writePage(outDir, page, render(site, page))
      return { type: 'written' }
  }
}

serveRequests(handle)
