// Render worker of `docs build`: renders Markdown for batches of docs, then renders and writes
// batches of pages, so a big site uses every core.
import { parentPort } from 'node:worker_threads'
import type { SiteModel } from '../templates/model.ts'
import { renderPage } from '../templates/render.tsx'
import { createDocRenderer, type DocRenderer } from './doc-renderer.ts'
import { writePage } from './output.ts'
import type { WorkerRequest, WorkerResponse } from './render-pool.ts'

let renderer: DocRenderer
let site: SiteModel
let outDir = ''

const handle = (request: WorkerRequest): WorkerResponse => {
  switch (request.type) {
    case 'init':
      renderer = createDocRenderer(request)
      return { type: 'ready' }
    case 'markdown':
      return { type: 'markdown', outcomes: request.docs.map((doc) => renderer.render(doc)) }
    case 'site':
      site = request.site
      outDir = request.outDir
      return { type: 'written' }
    case 'pages':
      for (const page of request.pages) writePage(outDir, page, renderPage(site, page))
      return { type: 'written' }
  }
}

parentPort!.on('message', (request: WorkerRequest) => {
  try {
    parentPort!.postMessage(handle(request))
  } catch (error) {
    parentPort!.postMessage({
      type: 'failed',
      message: error instanceof Error ? error.message : String(error),
    })
  }
})
