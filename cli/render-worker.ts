// Render worker of `docs build`: renders Markdown for a share of the docs, then renders and
// writes a share of the pages, so a big site uses every core.
import { parentPort } from 'node:worker_threads'
import { renderPage } from '../templates/render.tsx'
import { createDocRenderer, type DocRenderer } from './doc-renderer.ts'
import { writePage } from './output.ts'
import type { WorkerRequest, WorkerResponse } from './render-pool.ts'

let renderer: DocRenderer

const handle = (request: WorkerRequest): WorkerResponse => {
  switch (request.type) {
    case 'init':
      renderer = createDocRenderer(request)
      return { type: 'ready' }
    case 'markdown':
      return { type: 'markdown', outcomes: request.docs.map((doc) => renderer.render(doc)) }
    case 'pages':
      for (const page of request.pages)
        writePage(request.outDir, page, renderPage(request.site, page))
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
